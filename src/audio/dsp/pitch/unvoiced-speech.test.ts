import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PITCH_SETTINGS } from '../../../shared/pitch-settings';
import { decodeWav } from '../../codecs/wav-decoder';
import { correctPitch } from './correct-pitch';
import { voicedRuns } from './psola';
import { tempDir } from './sung-melody.test-helper';

const dir = tempDir();
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** espeak-ng speech full of sibilants and breathy consonants. */
const speech = () => {
  const wav = path.join(dir, 'speech.wav');
  execFileSync('espeak-ng', [
    '-w',
    wav,
    '-s',
    '140',
    'Sixty six sisters sang softly, she said; hush, such fresh seas.',
  ]);
  const decoded = decodeWav(fs.readFileSync(wav));
  return { x: decoded.channels[0]!, sampleRate: decoded.sampleRate };
};

describe('pitch correction leaves unvoiced speech untouched (espeak-ng)', () => {
  it('tracks sibilants as unvoiced and copies every sample outside the voiced runs', async () => {
    const { x, sampleRate } = speech();
    const { channels, track } = await correctPitch([x], sampleRate, {
      ...DEFAULT_PITCH_SETTINGS,
      amount: 100,
      retuneMs: 0,
      humanize: 0,
    });
    const out = channels[0]!;
    // Sibilant frames: loud enough and crossing zero on more than a third of the samples.
    let peak = 0;
    for (const v of x) peak = Math.max(peak, Math.abs(v));
    let sibilant = 0;
    let sibilantVoiced = 0;
    for (let f = 1; f < track.f0.length - 1; f++) {
      const a = Math.round((f - 0.5) * track.hop);
      let zc = 0;
      let energy = 0;
      for (let i = a + 1; i < a + track.hop && i < x.length; i++) {
        if (x[i]! * x[i - 1]! < 0) zc++;
        energy += x[i]! * x[i]!;
      }
      if (Math.sqrt(energy / track.hop) > 0.02 * peak && zc / track.hop > 0.33) {
        sibilant++;
        if (track.f0[f]! > 0) sibilantVoiced++;
      }
    }
    console.info(`espeak-ng: ${sibilant} sibilant frames, ${sibilantVoiced} tracked as voiced`);
    expect(sibilant).toBeGreaterThan(20);
    expect(sibilantVoiced / sibilant).toBeLessThan(0.1);
    // Outside the voiced runs (and their fades) the output is the input, bit for bit.
    const inside = new Uint8Array(x.length);
    for (const run of voicedRuns(track, x.length))
      inside.fill(1, Math.max(0, run.start - 400), run.end + 400);
    let checked = 0;
    for (let i = 0; i < x.length; i++)
      if (!inside[i]) {
        expect(out[i]).toBe(x[i]);
        checked++;
      }
    expect(checked).toBeGreaterThan(0.1 * x.length);
    let changed = 0;
    for (let i = 0; i < x.length; i++) if (out[i] !== x[i]) changed++;
    expect(changed).toBeGreaterThan(0);
  });
});
