import { describe, expect, it } from 'vitest';
import { mixArrangement } from '../../../shared/api/tracks';
import { FULL_VOCAL_CHAIN, initialFlow, vocalChainAmounts, vocalChainOf } from './flow-state';

describe("the vocal chain's manual amounts (issue 26, Adjust)", () => {
  it('renders exactly as before while every stage is at 100', () => {
    expect(initialFlow().vocalChain).toEqual(FULL_VOCAL_CHAIN);
    expect(vocalChainAmounts(initialFlow())).toBeUndefined();
  });

  it('hands the render only the stages turned down, as 0..1', () => {
    const flow = { ...initialFlow(), vocalChain: { ...FULL_VOCAL_CHAIN, cleanup: 0, space: 35 } };
    expect(vocalChainAmounts(flow)).toEqual({ cleanup: 0, space: 0.35 });
  });

  it('a saved session or mix brings its amounts back on the 0..100 scale, the rest as planned', () => {
    expect(vocalChainOf({ cleanup: 0, space: 0.35 })).toEqual({ ...FULL_VOCAL_CHAIN, cleanup: 0, space: 35 });
    expect(vocalChainOf(null)).toEqual(FULL_VOCAL_CHAIN);
    const flow = { ...initialFlow(), vocalChain: { ...FULL_VOCAL_CHAIN, riding: 55, unmasking: 5 } };
    expect(vocalChainOf(vocalChainAmounts(flow))).toEqual(flow.vocalChain);
  });

  it('the saved arrangement keeps them and refuses stages it does not know or amounts out of range', () => {
    const base = {
      vocalTrackId: 1,
      instrumentalTrackId: 2,
      sampleRate: 44_100,
      length: 44_100,
      vocalShare: 50,
      outputVolume: 80,
      clips: [{ id: 'v', trackType: 'vocals', sourceStart: 0, sourceEnd: 10, position: 0 }],
      genre: 'pop',
    };
    expect(mixArrangement.parse({ ...base, vocalChain: { cleanup: 0 } }).vocalChain).toEqual({ cleanup: 0 });
    expect(mixArrangement.safeParse({ ...base, vocalChain: { reverb: 0 } }).success).toBe(false);
    expect(mixArrangement.safeParse({ ...base, vocalChain: { cleanup: 2 } }).success).toBe(false);
  });
});
