/**
 * The mixer panels' first sentences (issue 30, decision 253): from real analyses where the repo has them
 * (the espeak-ng dirty take), else from reports shaped like the chain's.
 */
import { describe, expect, it } from 'vitest';
import type { VocalChainReport } from '../../../audio';
import { analyseVocal } from '../../../audio/dsp/vocal/analyse-vocal';
import { dirtyTake } from '../../../audio/dsp/vocal/dirty-take.test-helper';
import {
  mixMovesSentence,
  pitchFigures,
  pitchSentence,
  songFactsSentence,
  vocalSentence,
} from './plain-sentences';
import { vocalFindings } from './vocal-analysis/vocal-findings';

describe('the vocal analysis sentence', () => {
  it('names the fixes for the dirty take: hiss, the quiet phrase, the breaths, the sibilance', async () => {
    const take = await dirtyTake();
    if (!take) throw new Error('espeak-ng and ffmpeg are needed for the dirty take');
    const s = vocalSentence(vocalFindings(analyseVocal([take.vocal], take.sampleRate, 'pop'), 'pop'));
    expect(s).toMatch(/^We heard \d+ things to fix: the mix will clean the hiss, lower \d+ breaths?, /);
    expect(s).toMatch(/'s' sounds/);
    expect(s).toMatch(/lift one quiet phrase/);
    expect(s.endsWith('.')).toBe(true);
  }, 60_000);

  it('says a clean take is left alone', () => {
    expect(vocalSentence([{ id: 'noise', text: '', acts: false, numbers: [] }])).toBe(
      'Your vocal is clean and even, so the mix leaves it as it is.',
    );
    expect(
      vocalSentence([{ id: 'peaks', text: '', acts: true, fix: 'repair one clipped spot', numbers: [] }]),
    ).toBe('We heard one thing to fix: the mix will repair one clipped spot.');
  });
});

const report = (over: Partial<VocalChainReport>): VocalChainReport => ({
  genre: 'pop',
  noiseRemovedDb: 0,
  breathsLowered: 0,
  breathLowerDb: 0,
  clicksRepaired: 0,
  clippedRepaired: 0,
  ridingMinDb: 0,
  ridingMaxDb: 0,
  eqMoves: [],
  deEssBandHz: null,
  deEssMaxDb: 0,
  deEssMeanDb: 0,
  compressorMaxDb: 0,
  compressorRatio: 2,
  reverbDecaySeconds: 1.2,
  reverbWet: 0,
  delaySeconds: 0,
  delayWet: 0,
  tempoBpm: null,
  spaceDuckMaxDb: 0,
  unmaskingAmount: 0,
  unmaskingMaxDb: 0,
  ...over,
});

describe('the "What the mix did" sentence', () => {
  it('a busy chain on a dirty take', () => {
    expect(
      mixMovesSentence(
        report({
          noiseRemovedDb: -12,
          breathsLowered: 4,
          ridingMinDb: -3,
          ridingMaxDb: 6.2,
          eqMoves: [
            { band: 'highpass', frequencyHz: 80, gainDb: 0, dynamic: false },
            { band: 'mud', frequencyHz: 250, gainDb: -2, dynamic: false },
          ] as VocalChainReport['eqMoves'],
          deEssBandHz: [6000, 9000],
          deEssMaxDb: -5,
          reverbWet: 0.2,
          reverbDecaySeconds: 1.8,
          unmaskingAmount: 0.5,
        }),
      ),
    ).toBe(
      "Aimed at Pop, the mix cleaned the noise in the pauses, lowered 4 breaths, evened out the phrases by up to 6.2 dB, shaped the tone with one EQ move, tamed the 's' sounds, gave the voice 1.8 s of reverb and made the beat step back while the voice sings.",
    );
  });
  it('a clean take, dry style: nothing worth saying', () => {
    expect(mixMovesSentence(report({ genre: 'jazz', noiseRemovedDb: -0.2, ridingMaxDb: 0.5 }))).toBe(
      'Aimed at Jazz / Classical, the mix left the vocal almost as it was.',
    );
  });
});

describe('the song facts sentence', () => {
  const facts = (keyConfidence: number, tempoConfidence: number) => ({
    key: { tonic: 9, mode: 'minor' as const },
    tempoBpm: 96,
    keyConfidence,
    tempoConfidence,
  });
  it('sure of both', () => {
    expect(songFactsSentence(facts(0.9, 1))).toBe('Your beat is in A minor at 96 beats per minute.');
  });
  it('a guessed key, a guessed tempo, both guessed', () => {
    expect(songFactsSentence(facts(0.3, 0.9))).toMatch(/, but the key is a guess: check it with Edit\.$/);
    expect(songFactsSentence(facts(0.9, 0.2))).toMatch(/, but the tempo is a guess: check it with Edit\.$/);
    expect(songFactsSentence(facts(0.1, 0.2))).toMatch(/, but both are guesses: check them with Edit\.$/);
  });
});

/** A curve of 100 frames: sung at `offCents` above the target note, corrected to `afterCents`. */
const curve = (offCents: number, afterCents: number): Parameters<typeof pitchFigures>[0] => {
  const target = new Float32Array(100).fill(57);
  const detected = target.map((t, i) => (i < 10 ? Number.NaN : t + offCents / 100));
  const corrected = target.map((t, i) => (i < 10 ? Number.NaN : t + afterCents / 100));
  return { hop: 441, sampleRate: 44_100, target, detected, corrected };
};

describe('the pitch correction sentence', () => {
  it('an out-of-tune vocal pulled in', () => {
    const f = pitchFigures(curve(30, 5));
    expect(f.sungSeconds).toBeCloseTo(0.9, 5);
    expect(f.offShare).toBe(1);
    expect(pitchSentence(f, { key: { tonic: 9, mode: 'minor' }, amount: 80 })).toBe(
      'Your vocal sits 30 cents off the notes of A minor on average (100 cents make a semitone); with these settings it lands 5 cents off.',
    );
  });
  it('left as recorded at amount 0', () => {
    expect(pitchSentence(pitchFigures(curve(40, 40)), { key: null, amount: 0 })).toMatch(
      /^Your vocal sits 40 cents off the nearest notes on average .*; at Amount 0 it stays as recorded\.$/,
    );
  });
  it('already in tune, and nothing sung', () => {
    expect(pitchSentence(pitchFigures(curve(4, 1)), { key: null, amount: 100 })).toMatch(/already in tune/);
    const silent = { ...curve(0, 0), detected: new Float32Array(100).fill(Number.NaN) };
    expect(pitchSentence(pitchFigures(silent), { key: null, amount: 100 })).toBe(
      'We found no sung notes in the vocal to tune.',
    );
  });
});
