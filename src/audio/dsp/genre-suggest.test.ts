import { describe, expect, it } from 'vitest';
import { GENRES } from '../../shared/genres';
import { suggestBeatGenre } from './genre-suggest';
import { decodeTake } from './genre-takes.test-helper';
import { suggestGenreFor } from './genre-targets';
import { fluidsynthAvailable, renderBeat } from './song-facts/beat-render.test-helper';
import { BEAT_SET } from './song-facts/beat-set';
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

describe("suggestBeatGenre (decision 305: the mastering core in the mixer's words)", () => {
  it('hears a trap beat as Hip-hop / Trap, with its low end as a reason', () => {
    const s = suggestBeatGenre(analyseTrack([trapBeat(30)], RATE));
    console.log(
      'trap beat',
      s.features,
      s.genre,
      s.marginDb.toFixed(2),
      s.reasons.map((r) => r.text),
    );
    expect(s.genre).toBe('hiphop');
    expect(s.reasons.find((r) => r.feature === 'bassOverMidsDb')?.text).toMatch(
      /^Heavy low end: bass \+\d+ dB against the mids$/,
    );
  });

  it('hears a plucked, dynamic piece without bass as Acoustic or Jazz', () => {
    const s = suggestBeatGenre(analyseTrack([acousticPiece(32)], RATE));
    console.log(
      'acoustic piece',
      s.features,
      s.genre,
      s.marginDb.toFixed(2),
      s.reasons.map((r) => r.text),
    );
    expect(['acoustic', 'jazz']).toContain(s.genre);
    expect(s.features.bassOverMidsDb).toBeLessThan(-10);
    expect(s.reasons.find((r) => r.feature === 'highSlopeDbPerOctave')?.text).toMatch(/^Dark, warm top: /);
  });

  it('quotes the tempo as a reason when it suits the genre, and never lets it change the pick', () => {
    const analysis = analyseTrack([trapBeat(20)], RATE);
    const without = suggestBeatGenre(analysis);
    const fitting = suggestBeatGenre(analysis, 140);
    const unsuited = suggestBeatGenre(analysis, 200);
    expect(fitting.reasons.at(-1)?.text).toBe('140 BPM suits Hip-hop / Trap');
    expect(unsuited.reasons.some((r) => r.feature === 'tempoBpm')).toBe(false);
    // The mastering page has no tempo: the same beat must get the same genre and scores with or without it.
    for (const s of [fitting, unsuited]) {
      expect(s.genre).toBe(without.genre);
      expect(s.scores).toEqual(without.scores);
    }
  });

  it('names, for the same audio, the genre the mastering page says it sounds like (Debian music, rendered MIDI beats)', async () => {
    const takes: [string, Float32Array[] | null][] = [];
    for (const file of [
      '/usr/share/games/asc/music/frontiers.mp3',
      '/usr/share/games/asc/music/machine_wars.mp3',
      '/usr/share/hyperrogue/music/hr3-motion.ogg',
      '/usr/share/hyperrogue/music/hr3-hell.ogg',
      '/usr/share/games/frozen-bubble/snd/frozen-mainzik-2p.xm',
    ])
      takes.push([file.split('/').pop()!, await decodeTake(file, RATE, '', 20, 40)]);
    if (await fluidsynthAvailable())
      for (const spec of BEAT_SET.filter((b) => /^(house-D|hiphop-G|rock-E|ballad-C#)/.test(b.name)))
        takes.push([`MIDI ${spec.name}`, await decodeTake(await renderBeat(spec), RATE, '', 0, 40)]);
    let measured = 0;
    for (const [name, channels] of takes) {
      if (!channels) continue;
      const analysis = analyseTrack(channels, RATE);
      const mixer = suggestBeatGenre(analysis);
      const mastering = suggestGenreFor(analysis);
      console.log(
        name,
        mixer.genre,
        `margin ${mixer.marginDb.toFixed(2)} dB`,
        mixer.reasons.map((r) => r.text),
        GENRES.map((g, i) => `${g} ${mastering.outsideDb[i]!.toFixed(1)}`).join(', '),
      );
      expect(mixer.genre).toBe(mastering.genre);
      expect(mixer.reasons.length).toBeGreaterThanOrEqual(2);
      expect(Math.max(...Object.values(mixer.scores))).toBe(mixer.scores[mixer.genre]);
      measured++;
    }
    expect(measured).toBeGreaterThan(0);
  }, 240_000);
});
