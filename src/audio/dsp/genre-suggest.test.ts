import { describe, expect, it } from 'vitest';
import { beatFeatures, suggestGenre } from './genre-suggest';
import { decodeWithFfmpeg } from './node-tools.test-helper';
import { analyseTrack } from './track-analysis';

const RATE = 44100;

/** A deterministic noise source, so the generated beats are the same on every run. */
const noise = (seed: number) => {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  };
};

/**
 * A trap-like beat at 140 BPM (half-time feel): a long 808 sub (50 Hz sine, slow decay) every bar, a kick,
 * soft hats in eighths and a dark pad; mono.
 */
const trapBeat = (seconds: number): Float32Array => {
  const out = new Float32Array(seconds * RATE);
  const rand = noise(7);
  const beat = 60 / 140;
  for (let i = 0; i < out.length; i++) {
    const t = i / RATE;
    const inBar = t % (4 * beat);
    const inBeat = t % beat;
    const inEighth = t % (beat / 2);
    const sub = 0.5 * Math.sin(2 * Math.PI * 50 * t) * Math.exp(-inBar / 1.2);
    const kick =
      0.4 *
      Math.sin(2 * Math.PI * 60 * inBeat * (1 + 2 * Math.exp(-inBeat / 0.02))) *
      Math.exp(-inBeat / 0.12);
    const hat = 0.04 * rand() * Math.exp(-inEighth / 0.01);
    const pad =
      0.05 *
      (Math.sin(2 * Math.PI * 220 * t) + Math.sin(2 * Math.PI * 277 * t) + Math.sin(2 * Math.PI * 330 * t));
    out[i] = sub + kick + hat + pad;
  }
  return out;
};

/** Plucked strings (decaying harmonics at 196-392 Hz), loud and soft passages, no bass below 100 Hz. */
const acousticPiece = (seconds: number): Float32Array => {
  const out = new Float32Array(seconds * RATE);
  const notes = [196, 247, 294, 392, 330, 262];
  const spacing = 1;
  for (let i = 0; i < out.length; i++) {
    const t = i / RATE;
    const n = Math.floor(t / spacing);
    const since = t - n * spacing;
    const f = notes[n % notes.length]!;
    // Phrases alternate loud and soft every 8 s: a played piece breathes.
    const dynamics = Math.floor(t / 8) % 2 === 0 ? 0.5 : 0.08;
    let v = 0;
    for (let h = 1; h <= 8; h++)
      v += (Math.sin(2 * Math.PI * f * h * since) / h ** 1.5) * Math.exp(-since * (4 + 2 * h));
    out[i] = dynamics * v;
  }
  return out;
};

describe('suggestGenre', () => {
  it('hears a trap beat as Hip-hop / Trap, with its low end as a reason', () => {
    const features = beatFeatures(analyseTrack([trapBeat(30)], RATE));
    const s = suggestGenre(features);
    console.log(
      'trap beat',
      features,
      s.genre,
      s.reasons.map((r) => r.text),
    );
    expect(s.genre).toBe('hiphop');
    expect(s.reasons.map((r) => r.feature)).toContain('lowWeightDb');
    expect(s.reasons.find((r) => r.feature === 'lowWeightDb')?.text).toMatch(/^Heavy low end: bass \+\d+ dB/);
  });

  it('hears a plucked, dynamic piece without bass as Acoustic or Jazz', () => {
    const features = beatFeatures(analyseTrack([acousticPiece(32)], RATE));
    const s = suggestGenre(features);
    console.log(
      'acoustic piece',
      features,
      s.genre,
      s.reasons.map((r) => r.text),
    );
    expect(['acoustic', 'jazz']).toContain(s.genre);
    expect(features.lowWeightDb).toBeLessThan(-10);
  });

  it('adds the tempo as a reason only when it fits, and never lowers a score for an unknown tempo', () => {
    const analysis = analyseTrack([trapBeat(20)], RATE);
    const without = suggestGenre(beatFeatures(analysis));
    const fitting = suggestGenre(beatFeatures(analysis, 140));
    expect(fitting.genre).toBe('hiphop');
    expect(fitting.reasons.at(-1)?.text).toBe('140 BPM suits Hip-hop / Trap');
    expect(fitting.scores.hiphop).toBeGreaterThan(without.scores.hiphop);
    for (const g of Object.keys(without.scores) as (keyof typeof without.scores)[]) {
      expect(fitting.scores[g]).toBeGreaterThanOrEqual(without.scores[g]);
    }
  });

  it('gives every real Debian track a genre with two reasons (printed for the calibration)', async () => {
    const files = ['/usr/share/games/asc/music/frontiers.mp3', '/usr/share/hyperrogue/music/hr3-motion.ogg'];
    let measured = 0;
    for (const file of files) {
      const channels = await decodeWithFfmpeg(file, RATE);
      if (!channels) continue;
      const s = suggestGenre(beatFeatures(analyseTrack(channels, RATE)));
      console.log(
        file,
        s.features,
        s.genre,
        s.margin.toFixed(2),
        s.reasons.map((r) => r.text),
      );
      expect(s.reasons).toHaveLength(2);
      measured++;
    }
    expect(measured).toBeGreaterThan(0);
  }, 60_000);
});
