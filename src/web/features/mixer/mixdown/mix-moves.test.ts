import { describe, expect, it } from 'vitest';
import type { VocalChainReport } from '../../../../audio';
import { mixMoves, mixMovesTitle } from './mix-moves';

const report: VocalChainReport = {
  genre: 'rnb',
  noiseRemovedDb: -15.5,
  breathsLowered: 3,
  breathLowerDb: -10,
  clicksRepaired: 0,
  clippedRepaired: 2,
  ridingMinDb: -1,
  ridingMaxDb: 8.4,
  eqMoves: [
    { band: 'highpass', frequencyHz: 80, gainDb: 0, dynamic: false },
    { band: 'harsh', frequencyHz: 3500, gainDb: -1.2, dynamic: true },
  ],
  deEssBandHz: [4000, 8400],
  deEssMaxDb: 6,
  deEssMeanDb: 4.9,
  compressorMaxDb: 5.2,
  compressorRatio: 3.2,
  reverbDecaySeconds: 1.8,
  reverbWet: 0.2,
  delaySeconds: 0.3,
  delayWet: 0.1,
  tempoBpm: 100,
  spaceDuckMaxDb: 8,
  unmaskingAmount: 0.5,
  unmaskingMaxDb: 2.4,
};

describe('mixMoves', () => {
  it('lists every stage of the chain with its numbers, in order', () => {
    const moves = mixMoves(report);
    expect(mixMovesTitle(report)).toBe('Aimed at R&B');
    expect(moves.map((m) => m.stage)).toEqual([
      'Cleanup',
      'Level riding',
      'EQ',
      'De-esser',
      'Compression',
      'Space',
      'Unmasking',
    ]);
    const text = Object.fromEntries(moves.map((m) => [m.stage, m.text]));
    expect(text.Cleanup).toBe(
      'noise in the pauses −15.5 dB, 3 breaths lowered 10.0 dB, 2 clipped peaks repaired',
    );
    expect(text['Level riding']).toBe('phrases and words ridden from −1.0 dB to +8.4 dB');
    expect(text.EQ).toBe('high-pass 80 Hz, harsh 3.5 kHz −1.2 dB (dynamic)');
    expect(text['De-esser']).toBe('4–8.4 kHz, up to −6.0 dB (average −4.9 dB)');
    expect(text.Compression).toBe('3.2:1, up to −5.2 dB of gain reduction');
    expect(text.Space).toBe(
      'reverb 1.8 s at 20%, delay 300 ms (100 BPM), ducked up to −8.0 dB while the voice sings',
    );
    expect(text.Unmasking).toBe("the beat gives way by up to −2.4 dB in the voice's band while it sings");
  });

  it('says when a stage had nothing to do', () => {
    const moves = mixMoves({ ...report, eqMoves: [], deEssBandHz: null, unmaskingAmount: 0, delayWet: 0 });
    const text = Object.fromEntries(moves.map((m) => [m.stage, m.text]));
    expect(text.EQ).toBe('no moves needed');
    expect(text['De-esser']).toBe('off: no sibilant band found');
    expect(text.Unmasking).toBe('off for this mix style');
    expect(text.Space).toBe('reverb 1.8 s at 20%, ducked up to −8.0 dB while the voice sings');
  });
});
