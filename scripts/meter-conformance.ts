/**
 * Runs the EBU Tech 3341/3342 cases on our meter and writes the results the app shows
 * (src/web/lib/meter-conformance.json). `npm run conformance`; tests/meter-conformance.test.ts fails when
 * the committed file differs from a fresh run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EBU_CASES, runCase } from '../src/audio/dsp/conformance/ebu-cases';

export const CONFORMANCE_FILE = join(
  import.meta.dirname,
  '..',
  'src',
  'web',
  'lib',
  'meter-conformance.json',
);

export const conformanceJson = (): string =>
  `${JSON.stringify({ cases: EBU_CASES.map(runCase) }, null, 2)}\n`;

if (process.argv[1]?.endsWith('meter-conformance.ts')) {
  writeFileSync(CONFORMANCE_FILE, conformanceJson());
  console.log(`wrote ${CONFORMANCE_FILE}`);
}
