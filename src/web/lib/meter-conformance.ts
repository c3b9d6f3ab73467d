/**
 * Our meter's EBU Tech 3341/3342 results, computed by `npm run conformance` and checked to be current by
 * tests/meter-conformance.test.ts: the page shows measured numbers, never claims.
 */
import data from './meter-conformance.json';

export interface ConformanceCase {
  id: string;
  standard: string;
  number: number;
  signal: string;
  quantity: string;
  unit: string;
  expected: number;
  below: number;
  above: number;
  measured: number;
  pass: boolean;
}

export const CONFORMANCE_CASES: readonly ConformanceCase[] = data.cases;
export const CONFORMANCE_PASSED = CONFORMANCE_CASES.filter((c) => c.pass).length;

/** 'Meter conforms to EBU Tech 3341/3342 (16 of 16 cases)', or how many it passes when not all. */
export const conformanceLine = (): string =>
  CONFORMANCE_PASSED === CONFORMANCE_CASES.length
    ? `Meter conforms to EBU Tech 3341/3342 (${CONFORMANCE_PASSED} of ${CONFORMANCE_CASES.length} cases)`
    : `Meter passes ${CONFORMANCE_PASSED} of ${CONFORMANCE_CASES.length} EBU Tech 3341/3342 cases`;
