import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE_FILE, conformanceJson } from '../scripts/meter-conformance';
import { EBU_CASES, runCase } from '../src/audio/dsp/conformance/ebu-cases';

describe('meter conformance (EBU Tech 3341 / 3342, generated signals)', () => {
  for (const c of EBU_CASES) {
    it(`${c.standard} case ${c.number}: ${c.quantity} = ${c.expected} ${c.unit} (+${c.above}/-${c.below})`, () => {
      const r = runCase(c);
      expect(r.measured).toBeGreaterThanOrEqual(c.expected - c.below);
      expect(r.measured).toBeLessThanOrEqual(c.expected + c.above);
      expect(r.pass).toBe(true);
    });
  }

  it('the results the app shows are those of this meter (else run `npm run conformance`)', () => {
    expect(readFileSync(CONFORMANCE_FILE, 'utf8')).toBe(conformanceJson());
  });
});
