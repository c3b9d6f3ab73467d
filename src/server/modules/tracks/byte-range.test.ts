import { describe, expect, it } from 'vitest';
import { parseRange } from './byte-range';

describe('parseRange', () => {
  it.each([
    [undefined, { kind: 'whole' }],
    ['items=0-5', { kind: 'whole' }],
    ['bytes=0-0', { kind: 'single', start: 0, end: 0 }],
    ['bytes=0-99', { kind: 'single', start: 0, end: 99 }],
    ['bytes=10-', { kind: 'single', start: 10, end: 999 }],
    ['bytes=-1', { kind: 'single', start: 999, end: 999 }],
    ['bytes=-5000', { kind: 'single', start: 0, end: 999 }],
    ['bytes=900-5000', { kind: 'single', start: 900, end: 999 }],
    ['Bytes= 5 - 9 ', { kind: 'single', start: 5, end: 9 }],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=5-4', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=-', { kind: 'unsatisfiable' }],
    ['bytes=', { kind: 'unsatisfiable' }],
    ['bytes=a-b', { kind: 'unsatisfiable' }],
    ['bytes=0-1,3-4', { kind: 'unsatisfiable' }],
    ['bytes=1e3-', { kind: 'unsatisfiable' }],
    ['bytes=99999999999999999999-', { kind: 'unsatisfiable' }],
    ['garbage', { kind: 'unsatisfiable' }],
  ])('%s of 1000 bytes → %j', (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });

  it('has nothing to offer from an empty object', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});
