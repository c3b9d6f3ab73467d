/**
 * Issue 26's analysis on generated signals and on the espeak-ng dirty take: floor, print, sibilant band,
 * phrase levels, breaths, clipping, balance.
 */
import { describe, expect, it } from 'vitest';
import { BiquadCascade, designBiquad } from '../biquad';
import { analyseVocal, FRAME_VOICED } from './analyse-vocal';
import { dirtyTake, HISS_DBFS, QUIET_PHRASE_DB } from './dirty-take.test-helper';

const RATE = 44_100;

describe('analyseVocal on generated signals', () => {
  it('finds a clipped run and the true peak over 0 dBTP', () => {
    const n = RATE;
    const x = new Float32Array(n);
    for (let i = 0; i < n; i++)
      x[i] = Math.max(-1, Math.min(1, 1.6 * Math.sin((2 * Math.PI * 220 * i) / RATE)));
    const a = analyseVocal([x], RATE);
    expect(a.clipped.length).toBeGreaterThan(100);
    expect(a.truePeakDbtp).toBeGreaterThanOrEqual(0);
  });

  it('learns a hiss floor from the pauses of a tone that starts and stops', () => {
    const n = 3 * RATE;
    const x = new Float32Array(n);
    let s = 1;
    for (let i = 0; i < n; i++) {
      s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
      const hiss = (s / 4_294_967_296 - 0.5) * 2 * Math.sqrt(3) * 10 ** (-60 / 20);
      const on = i > RATE && i < 2 * RATE;
      let v = 0;
      for (let h = 1; h <= 10; h++) v += Math.sin((2 * Math.PI * 150 * h * i) / RATE) / h;
      x[i] = hiss + (on ? 0.2 * v : 0);
    }
    const a = analyseVocal([x], RATE);
    expect(a.noiseFloorDb).toBeGreaterThan(-62);
    expect(a.noiseFloorDb).toBeLessThan(-57);
    expect(a.noisePrint.frames).toBeGreaterThan(100);
    const voiced = a.voicing.classes.filter((c) => c === FRAME_VOICED).length;
    expect(voiced).toBeGreaterThan(80);
    expect(a.phrases).toHaveLength(1);
    expect(a.phrases[0]!.start).toBeCloseTo(1, 1);
    expect(a.phrases[0]!.end).toBeCloseTo(2, 1);
    // The same take on a longer timeline (digital silence before and after it, as the mixdown lays a clip
    // out): the print is still the hiss's, not pulled under it by the silence.
    const placed = new Float32Array(n + 6 * RATE);
    placed.set(x, 2 * RATE);
    const b = analyseVocal([placed], RATE);
    // (A few frames straddle the take's edges: half hiss, half silence.)
    expect(b.noisePrint.frames).toBeLessThan(a.noisePrint.frames + 10);
    const meanDb = (db: number[]) => db.reduce((p, d) => p + d, 0) / db.length;
    expect(Math.abs(meanDb(b.noisePrint.magnitudesDb) - meanDb(a.noisePrint.magnitudesDb))).toBeLessThan(0.5);
  });
});

describe('the sibilant band where the test put it', () => {
  for (const centre of [4500, 6300, 8000]) {
    it(`finds sibilance put at ${centre} Hz within a third of an octave`, () => {
      // Vowels (a 150 Hz buzz) alternating with band-passed noise bursts (the "s"), over faint hiss.
      const n = 4 * RATE;
      const x = new Float32Array(n);
      const bp = new BiquadCascade(2, 1);
      const design = designBiquad({ kind: 'bandpass', frequency: centre, q: 3 }, RATE);
      bp.setSection(0, design);
      bp.setSection(1, design);
      const hiss = new Float32Array(n);
      let s = 5;
      for (let i = 0; i < n; i++) {
        s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
        hiss[i] = s / 4_294_967_296 - 0.5;
      }
      const sib = Float32Array.from(hiss);
      bp.process(sib, 0);
      for (let i = 0; i < n; i++) {
        const t = i / RATE;
        const slot = Math.floor(t / 0.25) % 4;
        let v = 0;
        if (slot === 0 || slot === 2)
          for (let h = 1; h <= 12; h++) v += (0.15 * Math.sin(2 * Math.PI * 150 * h * t)) / h;
        if (slot === 1) v = 3 * sib[i]!;
        x[i] = v + 1e-3 * hiss[i]!;
      }
      const a = analyseVocal([x], RATE);
      const octaves = Math.abs(Math.log2(a.sibilance.peakHz / centre));
      console.log(centre, a.sibilance);
      expect(octaves).toBeLessThanOrEqual(1 / 3);
      expect(a.sibilance.loHz).toBeLessThan(centre);
      expect(a.sibilance.hiHz).toBeGreaterThan(centre);
    });
  }
});

describe('analyseVocal on the espeak-ng dirty take', { timeout: 120_000 }, () => {
  it('finds the hiss, the quiet phrase, the breaths and the sibilant band', async () => {
    const take = await dirtyTake(RATE);
    expect(take, 'espeak-ng and ffmpeg are needed').not.toBeNull();
    if (!take) return;
    const a = analyseVocal([take.vocal], RATE, 'pop');
    console.log(
      JSON.stringify({
        floor: a.noiseFloorDb,
        sib: a.sibilance,
        phrases: a.phrases.map((p) => [p.start.toFixed(2), p.end.toFixed(2), p.levelDb]),
        spread: a.phraseSpreadDb,
        breaths: a.breaths,
        balance: a.balance.map((b) => [b.band, b.levelDb, b.offTargetDb]),
        crest: a.crestDb,
        tp: a.truePeakDbtp,
      }),
    );
    expect(a.noiseFloorDb).toBeGreaterThan(HISS_DBFS - 3);
    expect(a.noiseFloorDb).toBeLessThan(HISS_DBFS + 4);
    expect(a.phrases.length).toBeGreaterThanOrEqual(3);
    expect(a.phraseSpreadDb).toBeGreaterThan(-QUIET_PHRASE_DB - 3);
    expect(a.sibilance.frames).toBeGreaterThan(20);
    expect(a.breaths.length).toBeGreaterThanOrEqual(1);
    expect(a.clipped).toHaveLength(0);
  });
});
