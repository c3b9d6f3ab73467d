/**
 * Vocal space (issue 18 "What to show"): an espeak-ng vocal over real produced beats (Debian's game music,
 * skipped where not installed). The vocal-band vocal-to-beat ratio while the vocal sings rises by the
 * figure the engine reports (checked against sox's FIR band filter, an independent measurement), the beat
 * is untouched bit for bit wherever the vocal is silent and at amount 0, the cut stays within a few dB, and
 * the streaming kernel in the worklet's 128-frame quanta gives the render's samples.
 */
import { describe, expect, it } from 'vitest';
import { biquadResponseDb } from './biquad';
import { sine } from './test-signals';
import { measureVocalClarity } from './vocal-clarity';
import {
  analyseVocalSpace,
  carveBeat,
  MAX_CUT_DB,
  SILENT_VOCAL_PROFILE,
  VOCAL_SPACE_EDGES_HZ,
  VocalSpaceProcessor,
  vocalSpaceBandDesigns,
  vocalSpaceResponseDb,
} from './vocal-space';
import { BEATS, espeakVocal, LYRICS, realBeat, rmsDb, soxRiseDb } from './vocal-space.test-helper';

const RATE = 44100;
const immediate = () => Promise.resolve();

/** The vocal 6 dB under the beat (broadband RMS): a dense beat that masks it. */
let spokenOnce: Promise<Float32Array[] | null> | null = null;
const fixture = async (beatPath: string) => {
  spokenOnce ??= espeakVocal(LYRICS, RATE);
  const spoken = await spokenOnce;
  if (!spoken) return null;
  const frames = spoken[0]!.length;
  const beat = await realBeat(beatPath, RATE, 30, frames);
  if (!beat) return null;
  const g = 10 ** ((rmsDb(beat) - 6 - rmsDb(spoken)) / 20);
  const vocal = spoken.map((c) => c.map((x) => x * g));
  return { vocal, beat, frames };
};

const carved = async (beat: Float32Array[], vocal: Float32Array[], amount: number) => {
  const out = beat.map((c) => c.slice());
  const profile = await carveBeat(out, vocal, RATE, { amount }, { yieldFn: immediate });
  return { out, profile };
};

const bitIdentical = (a: Float32Array, b: Float32Array, from = 0, to = a.length) => {
  for (let i = from; i < to; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
};

describe('vocal space: espeak-ng vocal over real beats', { timeout: 240_000 }, () => {
  for (const path of BEATS) {
    it(`${path.split('/').pop()}: the vocal-band ratio rises by the figure shown, as sox measures it too`, async (ctx) => {
      const f = await fixture(path);
      if (!f) return ctx.skip();
      const rows: string[] = [];
      let previous = 0;
      for (const amount of [25, 50, 100]) {
        const { out, profile } = await carved(f.beat, f.vocal, amount);
        const clarity = measureVocalClarity(f.vocal, f.beat, out, RATE, profile);
        // An independent measurement of the same rise: sox's FIR band filter over the same singing blocks.
        const soxRise = await soxRiseDb(f.vocal, f.beat, out, RATE, profile);
        rows.push(
          `amount ${amount}: ratio ${clarity.before.ratioDb.toFixed(2)} -> ${clarity.after.ratioDb.toFixed(2)} dB ` +
            `(+${clarity.clarityDb.toFixed(2)} shown; sox +${soxRise.toFixed(2)}) over ${clarity.before.singingSeconds.toFixed(1)} s of singing`,
        );
        expect(clarity.clarityDb).toBeGreaterThan(previous);
        expect(clarity.clarityDb).toBeLessThanOrEqual(MAX_CUT_DB);
        expect(Math.abs(soxRise - clarity.clarityDb)).toBeLessThanOrEqual(0.3);
        previous = clarity.clarityDb;
      }
      // At full amount a dense beat gives a clear, audible figure.
      expect(previous).toBeGreaterThanOrEqual(1.5);
      console.log(`[vocal space] ${path}\n  ${rows.join('\n  ')}`);
    });
  }

  it('the beat is untouched bit for bit wherever the vocal has been silent for 1 s, and at amount 0', async (ctx) => {
    const f = await fixture(BEATS[0]!);
    if (!f) return ctx.skip();
    const { out } = await carved(f.beat, f.vocal, 100);
    // Frames whose previous second of vocal is digital silence (the pauses between verses).
    let silentRun = 0;
    let checked = 0;
    let changedWhileSinging = 0;
    for (let i = 0; i < f.frames; i++) {
      silentRun = f.vocal[0]![i] === 0 && f.vocal[1]![i] === 0 ? silentRun + 1 : 0;
      const same = Object.is(out[0]![i], f.beat[0]![i]) && Object.is(out[1]![i], f.beat[1]![i]);
      if (silentRun > RATE) {
        expect(same).toBe(true);
        checked++;
      } else if (!same) changedWhileSinging++;
    }
    expect(checked).toBeGreaterThan(RATE); // the pauses were really checked
    expect(changedWhileSinging).toBeGreaterThan(RATE); // and the carve really acted while singing
    const off = await carved(f.beat, f.vocal, 0);
    for (let c = 0; c < 2; c++) expect(bitIdentical(off.out[c]!, f.beat[c]!)).toBe(true);
  });

  it('a silent vocal changes nothing at all, whatever the amount', async (ctx) => {
    const f = await fixture(BEATS[1]!);
    if (!f) return ctx.skip();
    const silence = [new Float32Array(f.frames), new Float32Array(f.frames)];
    expect(analyseVocalSpace(silence, RATE)).toEqual(SILENT_VOCAL_PROFILE);
    const { out } = await carved(f.beat, silence, 100);
    for (let c = 0; c < 2; c++) expect(bitIdentical(out[c]!, f.beat[c]!)).toBe(true);
    // Even with a profile taken from a real vocal: the gate stays shut on a silent sidechain.
    const profile = analyseVocalSpace(f.vocal, RATE);
    const withProfile = f.beat.map((c) => c.slice());
    await carveBeat(withProfile, silence, RATE, { amount: 100, profile }, { yieldFn: immediate });
    for (let c = 0; c < 2; c++) expect(bitIdentical(withProfile[c]!, f.beat[c]!)).toBe(true);
    const clarity = measureVocalClarity(silence, f.beat, out, RATE, profile);
    expect(clarity.clarityDb).toBe(0);
    expect(clarity.before.singingSeconds).toBe(0);
  });
});

describe('vocal space: the carve', () => {
  it('at full cut the beat is lowered by at most MAX_CUT_DB, only around 1-5 kHz, never raised', () => {
    // The static response with every band at the full cut.
    const g = 10 ** (-MAX_CUT_DB / 20);
    const designs = vocalSpaceBandDesigns(RATE);
    const responseDb = (hz: number) => vocalSpaceResponseDb([g, g, g, g], hz, RATE);
    const grid = Array.from({ length: 400 }, (_, i) => 20 * 2 ** (i / 40));
    const responses = grid.map(responseDb);
    expect(Math.max(...responses)).toBeLessThanOrEqual(0.05);
    expect(Math.min(...responses)).toBeGreaterThanOrEqual(-MAX_CUT_DB - 0.01);
    expect(Math.min(...responses)).toBeLessThanOrEqual(-MAX_CUT_DB + 0.1);
    // Deep inside the band, near nothing outside it.
    expect(responseDb(2236)).toBeLessThan(-MAX_CUT_DB + 1.5);
    expect(responseDb(200)).toBeGreaterThan(-0.3);
    expect(responseDb(15000)).toBeGreaterThan(-0.5);
    // Each band-pass is 0 dB at its centre, -3 dB at the band edges.
    const centre = Math.sqrt(VOCAL_SPACE_EDGES_HZ[0]! * VOCAL_SPACE_EDGES_HZ[1]!);
    expect(biquadResponseDb(designs[0]!, centre, RATE)).toBeCloseTo(0, 6);
    expect(biquadResponseDb(designs[0]!, VOCAL_SPACE_EDGES_HZ[1]!, RATE)).toBeCloseTo(-3.01, 1);
  });

  it("the profile follows the vocal's own spectrum: the bands where it lives are carved most", () => {
    const seconds = 3;
    // Quiet tones under a loud noise beat: the beat masks them in their band.
    const [low] = sine(RATE, seconds, 1200, -40, 1) as [Float32Array];
    const [high] = sine(RATE, seconds, 4000, -40, 1) as [Float32Array];
    const pLow = analyseVocalSpace([low, low], RATE);
    const pHigh = analyseVocalSpace([high, high], RATE);
    expect(pLow.weights[0]).toBe(1);
    expect(pLow.weights[3]).toBeLessThan(0.1);
    expect(pHigh.weights[3]).toBe(1);
    expect(pHigh.weights[0]).toBeLessThan(0.1);
    // The same noisy beat carved under each: the cut lands in the vocal's band.
    const beat = [new Float32Array(seconds * RATE), new Float32Array(seconds * RATE)];
    let seed = 7;
    for (const c of beat)
      for (let i = 0; i < c.length; i++) {
        seed = (seed * 1664525 + 1013904223) >>> 0;
        c[i] = (seed / 2 ** 32 - 0.5) * 0.5;
      }
    const carveUnder = (vocal: Float32Array) => {
      const out = beat.map((c) => c.slice());
      const p = new VocalSpaceProcessor(RATE, 2, analyseVocalSpace([vocal, vocal], RATE), 100);
      p.process(out, [vocal, vocal], 0, out[0]!.length);
      return out;
    };
    /** Energy change of band k (through its own band-pass), after the detectors settled (1 s), dB. */
    const bandDrop = (out: Float32Array[], k: number) => {
      const c = vocalSpaceBandDesigns(RATE)[k]!;
      const energy = (x: Float32Array) => {
        let e = 0;
        let s1 = 0;
        let s2 = 0;
        for (let i = 0; i < x.length; i++) {
          const v = c.b0 * x[i]! + s1;
          s1 = c.b1 * x[i]! - c.a1 * v + s2;
          s2 = c.b2 * x[i]! - c.a2 * v;
          if (i >= RATE) e += v * v;
        }
        return e;
      };
      return 10 * Math.log10(energy(out[0]!) / energy(beat[0]!));
    };
    const underLow = carveUnder(low);
    const underHigh = carveUnder(high);
    expect(bandDrop(underLow, 0)).toBeLessThan(bandDrop(underLow, 3) - 1);
    expect(bandDrop(underHigh, 3)).toBeLessThan(bandDrop(underHigh, 0) - 1);
  });
});

describe('vocal space: live path', { timeout: 120_000 }, () => {
  it("the streaming kernel in the worklet's 128-frame quanta gives the render's samples", async (ctx) => {
    const f = await fixture(BEATS[0]!);
    if (!f) return ctx.skip();
    const { out: offline, profile } = await carved(f.beat, f.vocal, 80);
    const live = f.beat.map((c) => c.slice());
    const p = new VocalSpaceProcessor(RATE, 2, profile, 80);
    for (let i = 0; i < f.frames; i += 128) p.process(live, f.vocal, i, Math.min(f.frames, i + 128));
    for (let c = 0; c < 2; c++) expect(bitIdentical(live[c]!, offline[c]!)).toBe(true);
  });
});
