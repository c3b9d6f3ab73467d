/**
 * Issue 26 through the real mixdown: the espeak-ng dirty take (s-heavy speech, the second sentence 8 dB
 * quieter, steady hiss at -50 dBFS, breaths) over an instrumental below the voice's bands, mixed by the
 * fixed chain (no genre: today's mixdown) and by the adaptive chain. The three measures are printed
 * and held to what the issue asks; the noise reduction alone is held to its own measures (hiss down, voice
 * untouched, no musical noise), against a plain spectral subtraction that the musical-noise measure must
 * catch.
 */
import { describe, expect, it } from 'vitest';
import { analyseVocal } from '../dsp/vocal/analyse-vocal';
import { denoiseInPlace } from '../dsp/vocal/denoise';
import { type DirtyTake, dirtyTake } from '../dsp/vocal/dirty-take.test-helper';
import { FftPlan } from '../dsp/vocal/fft-plan';
import { sungTake } from '../dsp/vocal/sung-take.test-helper';
import { mixMid as mid, takeFigures } from '../dsp/vocal/take-figures.test-helper';
import {
  framePowers,
  kurtosisRatio,
  phraseLevelsDb,
  type Range,
  voiceBandDb,
  voiceOverHissDb,
} from '../dsp/vocal/vocal-measures.test-helper';
import { BEATS, realBeat } from '../dsp/vocal-space.test-helper';
import type { TimelineClip } from '../model/clip';
import { type MixRenderInput, type MixRenderSettings, renderMix } from './mix-render';

const SR = 44_100;

let takeOnce: Promise<DirtyTake | null> | null = null;
const take = () => {
  takeOnce ??= dirtyTake(SR);
  return takeOnce;
};

const inputFor = (t: DirtyTake): MixRenderInput => {
  const n = t.vocal.length;
  const clips: TimelineClip[] = [
    { id: 'v', trackType: 'vocals', sourceStart: 0, sourceEnd: n, position: 0 },
    { id: 'i', trackType: 'instrumental', sourceStart: 0, sourceEnd: n, position: 0 },
  ];
  return {
    vocals: { channels: [t.vocal], sampleRate: SR },
    instrumental: { channels: t.instrumental, sampleRate: SR },
    clips,
    sampleRate: SR,
    length: n,
    tempoBpm: 100,
  };
};

/** The quiet tails of the pauses (the last 0.5 s before each phrase), where no reverb or delay rings. */
const pausesOf = (t: DirtyTake): Range[] =>
  t.phrases
    .map((p) => ({ start: Math.max(0, p.start - 0.55), end: p.start - 0.05 }))
    .filter((r) => {
      // Keep clear of the breaths the take put before phrases two and three.
      return !t.breaths.some((b) => b.end > r.start && b.start < r.end);
    });

const figures = (x: Float32Array, t: DirtyTake) => takeFigures(x, SR, t);

const r1 = (x: number) => Math.round(x * 10) / 10;

describe('the adaptive vocal chain on the espeak-ng dirty take', { timeout: 600_000 }, () => {
  it("reaches the issue's three measures through the real mixdown", async () => {
    const t = await take();
    expect(t, 'espeak-ng and ffmpeg are needed').not.toBeNull();
    if (!t) return;
    const input = inputFor(t);
    const settings: MixRenderSettings = { vocalShare: 50, outputVolume: 100 };
    const raw = figures(t.vocal, t);
    const today = figures(mid((await renderMix(input, settings)).channels), t);
    const chained = await renderMix(input, { ...settings, genre: 'pop' });
    const ours = figures(mid(chained.channels), t);
    console.log(
      JSON.stringify(
        {
          raw: { sib: r1(raw.sibilantDb), spread: r1(raw.spreadDb), hiss: r1(raw.voiceOverHissDb) },
          today: { sib: r1(today.sibilantDb), spread: r1(today.spreadDb), hiss: r1(today.voiceOverHissDb) },
          chain: { sib: r1(ours.sibilantDb), spread: r1(ours.spreadDb), hiss: r1(ours.voiceOverHissDb) },
          phrases: ours.phraseDb.map(r1),
          report: chained.report.vocalChain,
        },
        null,
        1,
      ),
    );
    // Sibilant peaks over the vowels at or below the raw take's.
    expect(ours.sibilantDb).toBeLessThanOrEqual(raw.sibilantDb);
    // The phrase 8 dB quieter comes out within 3 dB of the others.
    expect(ours.spreadDb).toBeLessThanOrEqual(3);
    // The hiss at least 10 dB further under the voice than in the raw take.
    expect(ours.voiceOverHissDb - raw.voiceOverHissDb).toBeGreaterThanOrEqual(10);
    // The de-esser's band found around the take's sibilance (espeak-ng's "s" sits between 4 and 9 kHz).
    const band = chained.report.vocalChain!.deEssBandHz!;
    expect(band[0]).toBeGreaterThanOrEqual(3000);
    expect(band[1]).toBeLessThanOrEqual(12_000);
  });

  it('with every stage at 0 the mixdown is bit-identical to the fixed chain', async () => {
    const t = await take();
    if (!t) return;
    const input = inputFor(t);
    const settings: MixRenderSettings = { vocalShare: 75, outputVolume: 90 };
    const off = Object.fromEntries(
      ['cleanup', 'riding', 'eq', 'deEsser', 'compression', 'space', 'unmasking'].map((s) => [s, 0]),
    );
    const a = await renderMix(input, settings);
    const b = await renderMix(input, { ...settings, genre: 'hiphop', vocalChain: off });
    expect(b.report.vocalChain).toBeUndefined();
    for (let c = 0; c < 2; c++)
      expect(Buffer.from(b.channels[c]!.buffer).equals(Buffer.from(a.channels[c]!.buffer))).toBe(true);
  });

  it('runs on a stereo vocal placed later on the timeline, over a preview window, with stems', async () => {
    const t = await take();
    if (!t) return;
    const n = t.vocal.length;
    const offset = SR;
    const input: MixRenderInput = {
      ...inputFor(t),
      vocals: { channels: [t.vocal, Float32Array.from(t.vocal, (v) => 0.9 * v)], sampleRate: SR },
      clips: [
        { id: 'v', trackType: 'vocals', sourceStart: 0, sourceEnd: n, position: offset },
        { id: 'i', trackType: 'instrumental', sourceStart: 0, sourceEnd: n, position: 0 },
      ],
      length: n + offset,
      tempoBpm: undefined,
    };
    const settings: MixRenderSettings = { vocalShare: 25, outputVolume: 80, genre: 'acoustic' };
    const whole = await renderMix(input, settings, { stems: true });
    expect(whole.report.vocalChain?.delaySeconds).toBeCloseTo(0.11, 3);
    // The stems still sum to the mix.
    let worst = 0;
    for (let i = 0; i < n; i += 97)
      worst = Math.max(
        worst,
        Math.abs(whole.stems!.vocals[0]![i]! + whole.stems!.instrumental[0]![i]! - whole.channels[0]![i]!),
      );
    expect(worst).toBeLessThan(1e-5);
    const preview = await renderMix(input, settings, { window: { start: 5 * SR, length: 4 * SR } });
    expect(preview.channels[0]!.length).toBe(4 * SR);
    expect(preview.report.vocalChain?.genre).toBe('acoustic');
  });

  it('the noise reduction alone: hiss down 10 dB or more, the voice within 1 dB, no musical noise', async () => {
    const t = await take();
    if (!t) return;
    const analysis = analyseVocal([t.vocal], SR, 'pop');
    const ours = Float32Array.from(t.vocal);
    await denoiseInPlace(ours, analysis.noisePrint, { maxReductionDb: 18 });
    const naive = naiveSubtraction(t.vocal, analysis.noisePrint.magnitudesDb);
    const pauses = pausesOf(t);
    const hissDown =
      voiceOverHissDb(ours, SR, t.phrases, pauses) - voiceOverHissDb(t.vocal, SR, t.phrases, pauses);
    const voiceMoved = voiceBandDb(ours, SR, t.phrases) - voiceBandDb(t.vocal, SR, t.phrases);
    const musical = kurtosisRatio(t.hiss, subtract(ours, t.clean), SR, pauses);
    const musicalNaive = kurtosisRatio(t.hiss, subtract(naive, t.clean), SR, pauses);
    console.log(
      JSON.stringify({ hissDown: r1(hissDown), voiceMoved: r1(voiceMoved), musical, musicalNaive }),
    );
    expect(hissDown).toBeGreaterThanOrEqual(10);
    expect(Math.abs(voiceMoved)).toBeLessThanOrEqual(1);
    // The residual keeps the hiss's statistics (ratio near 1); plain subtraction's twinkles do not.
    expect(musicalNaive).toBeGreaterThan(2);
    expect(musical).toBeLessThan(1.5);
  });
});

const subtract = (a: Float32Array, b: Float32Array) => Float32Array.from(a, (v, i) => v - b[i]!);

/**
 * Plain magnitude spectral subtraction (Boll 1979) with no smoothing and no floor: what "musical noise" means.
 * Same STFT as ours (1024, 50 %, square-root Hann).
 */
const naiveSubtraction = (x: Float32Array, printDb: readonly number[]): Float32Array => {
  const N = 1024;
  const hop = N / 2;
  const plan = new FftPlan(N);
  const win = Float64Array.from({ length: N }, (_, i) =>
    Math.sqrt(0.5 - 0.5 * Math.cos((2 * Math.PI * i) / N)),
  );
  const noiseMag = printDb.map((db) => Math.sqrt((10 ** (db / 10) * N * N) / 4));
  const out = new Float32Array(x.length);
  const re = new Float64Array(N);
  const im = new Float64Array(N);
  for (let a = -hop; a < x.length; a += hop) {
    for (let i = 0; i < N; i++) {
      const j = a + i;
      re[i] = j >= 0 && j < x.length ? x[j]! * win[i]! : 0;
      im[i] = 0;
    }
    plan.forward(re, im);
    for (let k = 0; k < N; k++) {
      const b = Math.min(k, N - k);
      const mag = Math.hypot(re[k]!, im[k]!);
      const g = mag > 0 ? Math.max(0, mag - noiseMag[b]!) / mag : 0;
      re[k]! *= g;
      im[k]! *= -g;
    }
    plan.forward(re, im);
    for (let i = 0; i < N; i++) {
      const j = a + i;
      if (j >= 0 && j < x.length) out[j]! += (re[i]! / N) * win[i]!;
    }
  }
  return out;
};

describe('the adaptive vocal chain on a sung General MIDI take (fluidsynth)', { timeout: 600_000 }, () => {
  it('brings the phrase sung 8 dB quieter within 3 dB and the hiss 10 dB further under the voice', async () => {
    const sung = await sungTake(SR);
    expect(sung, 'fluidsynth and fluid-soundfont-gm are needed').not.toBeNull();
    if (!sung) return;
    const n = sung.vocal.length;
    const bass = Float32Array.from({ length: n }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 55 * i) / SR));
    const input: MixRenderInput = {
      vocals: { channels: [sung.vocal], sampleRate: SR },
      instrumental: { channels: [bass, Float32Array.from(bass)], sampleRate: SR },
      clips: [
        { id: 'v', trackType: 'vocals', sourceStart: 0, sourceEnd: n, position: 0 },
        { id: 'i', trackType: 'instrumental', sourceStart: 0, sourceEnd: n, position: 0 },
      ],
      sampleRate: SR,
      length: n,
      tempoBpm: 120,
    };
    const settings: MixRenderSettings = { vocalShare: 50, outputVolume: 100, genre: 'rnb' };
    const out = mid((await renderMix(input, settings)).channels);
    // The pause before the first phrase (no reverb or delay rings there yet).
    const pauses = [{ start: 0.05, end: 0.9 }];
    const rawLevels = phraseLevelsDb(sung.vocal, SR, sung.phrases);
    const levels = phraseLevelsDb(out, SR, sung.phrases);
    const spread = (v: number[]) => Math.max(...v) - Math.min(...v);
    const hissGain =
      voiceOverHissDb(out, SR, sung.phrases, pauses) - voiceOverHissDb(sung.vocal, SR, sung.phrases, pauses);
    console.log(
      JSON.stringify({
        rawSpread: r1(spread(rawLevels)),
        spread: r1(spread(levels)),
        hissGain: r1(hissGain),
      }),
    );
    expect(spread(rawLevels)).toBeGreaterThan(6);
    expect(spread(levels)).toBeLessThanOrEqual(3);
    expect(hissGain).toBeGreaterThanOrEqual(10);
  });
});

describe('the adaptive vocal chain over a real beat (Debian asc-music)', { timeout: 600_000 }, () => {
  it('carves the beat where the voice lives while it sings, not in the pauses', async () => {
    const t = await take();
    if (!t) return;
    const n = t.vocal.length;
    const beat = await realBeat(BEATS[0]!, SR, 30, n);
    expect(beat, 'asc-music and ffmpeg are needed').not.toBeNull();
    if (!beat) return;
    const input: MixRenderInput = { ...inputFor(t), instrumental: { channels: beat, sampleRate: SR } };
    const settings: MixRenderSettings = { vocalShare: 75, outputVolume: 100, genre: 'hiphop' };
    const carved = await renderMix(input, settings, { stems: true });
    const flat = await renderMix(input, { ...settings, vocalChain: { unmasking: 0 } }, { stems: true });
    const band = (x: Float32Array, ranges: Range[]) =>
      10 *
      Math.log10(
        ranges
          .flatMap((r) => framePowers(x, SR, [[1000, 5000]], r.start, r.end)[0]!)
          .reduce((a, b) => a + b, 0),
      );
    const sung = t.phrases;
    const rests = [{ start: 0.05, end: t.phrases[0]!.start - 0.3 }];
    const inPhrases = band(mid(carved.stems!.instrumental), sung) - band(mid(flat.stems!.instrumental), sung);
    const inRests = band(mid(carved.stems!.instrumental), rests) - band(mid(flat.stems!.instrumental), rests);
    console.log(
      JSON.stringify({
        inPhrases: r1(inPhrases),
        inRests: r1(inRests),
        report: carved.report.vocalChain?.unmaskingMaxDb,
      }),
    );
    expect(carved.report.vocalChain!.unmaskingMaxDb).toBeGreaterThan(3);
    // Averaged over whole phrases (the gaps between words included): measured -1.3 dB.
    expect(inPhrases).toBeLessThan(-0.8);
    expect(Math.abs(inRests)).toBeLessThan(0.5);
  });
});
