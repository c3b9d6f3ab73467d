/**
 * Song facts on material with a known answer: 24 beats rendered by fluidsynth from MIDI written here
 * (nine styles, 70–170 BPM, major and minor, swung), Debian's sonic-pi-samples loops (their length is a whole
 * number of beats), and generated signals. aubio's `aubio tempo` runs on the same files as the independent
 * tool; both counts are printed. Issue 27: tempo within 1 % on ≥ 90 % (half or double counted wrong), key
 * right (or its relative, said so) on ≥ 90 %.
 */
import { describe, expect, it } from 'vitest';
import { decodeWithFfmpeg } from '../node-tools.test-helper';
import { analyzeSongFacts } from './analyze';
import { aubioTempo, fluidsynthAvailable, renderBeat } from './beat-render.test-helper';
import { BEAT_SET } from './beat-set';
import { relativeKey } from './key';

const NAMES = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'];
const RATE = 44100;

/** A click track: a short decaying noise burst on every beat, louder on the downbeat. */
const clickTrack = (bpm: number, seconds: number, offset: number): Float32Array => {
  const out = new Float32Array(Math.round(seconds * RATE));
  let seed = 1;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x3fffffff - 1;
  };
  for (let b = 0; ; b++) {
    const start = Math.round((offset + (b * 60) / bpm) * RATE);
    if (start >= out.length) break;
    const gain = b % 4 === 0 ? 1 : 0.5;
    for (let i = 0; i < 2000 && start + i < out.length; i++) {
      const env = Math.exp(-i / 300);
      // Downbeats add a low thump, as a kick would.
      const low = b % 4 === 0 ? Math.sin((2 * Math.PI * 60 * i) / RATE) * Math.exp(-i / 1500) : 0;
      out[start + i] += gain * env * noise() * 0.5 + low * 0.8;
    }
  }
  return out;
};

/** Sustained triads of sines (three partials each) following a progression, one chord per bar. */
const chordPad = (roots: [number, 'maj' | 'min'][], bpm: number, bars: number): Float32Array => {
  const barSamples = Math.round((240 / bpm) * RATE);
  const out = new Float32Array(barSamples * bars);
  for (let bar = 0; bar < bars; bar++) {
    const [root, quality] = roots[bar % roots.length]!;
    const notes = [48 + root, 60 + root, 60 + root + (quality === 'maj' ? 4 : 3), 60 + root + 7];
    for (const midi of notes) {
      const hz = 440 * 2 ** ((midi - 69) / 12);
      for (let i = 0; i < barSamples; i++) {
        const t = i / RATE;
        const env = Math.min(1, i / 400) * Math.exp(-t * 0.8);
        const v =
          Math.sin(2 * Math.PI * hz * t) +
          0.4 * Math.sin(4 * Math.PI * hz * t) +
          0.2 * Math.sin(6 * Math.PI * hz * t);
        out[bar * barSamples + i] += 0.08 * env * v;
      }
    }
  }
  return out;
};

describe('song facts on generated signals', () => {
  // Every case checks the downbeat too: a grid at the right tempo but off by a beat would misplace every bar.
  it('finds the tempo, the first downbeat and the grid of a click track', async () => {
    // Above ~120 BPM this bare metronome reads at half tempo: with a kick only on 1 and a click on 3, the
    // kick/no-kick alternation looks like a backbeat at half the tempo (decision 191, a known limit; beats
    // with a snare or clap do not have it).
    for (const bpm of [72, 100]) {
      const click = clickTrack(bpm, 20, 0.25);
      const { facts } = await analyzeSongFacts([click], RATE);
      expect(Math.abs(facts.tempoBpm / bpm - 1)).toBeLessThan(0.01);
      const bar = 240 / bpm;
      const off = (((facts.downbeatSeconds - 0.25) % bar) + bar) % bar;
      expect(Math.min(off, bar - off)).toBeLessThan(0.03);
    }
  });

  it('names the key of sine chords: C major and A minor from the same notes, by the tonic', async () => {
    const major = chordPad(
      [
        [0, 'maj'],
        [5, 'maj'],
        [7, 'maj'],
        [0, 'maj'],
      ],
      100,
      8,
    );
    const minor = chordPad(
      [
        [9, 'min'],
        [2, 'min'],
        [4, 'maj'],
        [9, 'min'],
      ],
      100,
      8,
    );
    const click = clickTrack(100, major.length / RATE, 0);
    const mix = (pad: Float32Array) => pad.map((v, i) => v + 0.3 * click[i]!);
    const a = await analyzeSongFacts([mix(major)], RATE);
    expect(a.facts.key).toEqual({ tonic: 0, mode: 'major' });
    const b = await analyzeSongFacts([mix(minor)], RATE);
    expect(b.facts.key).toEqual({ tonic: 9, mode: 'minor' });
  });
});

describe('song facts on rendered beats', async () => {
  const available = await fluidsynthAvailable();
  it.runIf(available)(
    'reaches the issue: tempo within 1 % and key (or relative) on at least 90 % of 24 beats',
    async () => {
      let tempoRight = 0;
      let keyExact = 0;
      let keyRelative = 0;
      let aubioRight = 0;
      let downbeatRight = 0;
      const lines: string[] = [];
      for (const spec of BEAT_SET) {
        const path = await renderBeat(spec);
        const channels = (await decodeWithFfmpeg(path, RATE))!;
        const a = await analyzeSongFacts(channels, RATE);
        const f = a.facts;
        const tempoOk = Math.abs(f.tempoBpm / spec.bpm - 1) <= 0.01;
        const truth = { tonic: spec.tonic, mode: spec.mode };
        const exact = f.key.tonic === truth.tonic && f.key.mode === truth.mode;
        const rel = relativeKey(truth);
        // "Or its relative, said so": the relative counts only when the analysis reports the pair.
        const relative =
          !exact && f.key.tonic === rel.tonic && f.key.mode === rel.mode && a.relativeOf !== undefined;
        const aubio = await aubioTempo(path);
        const aubioOk = aubio !== null && Math.abs(aubio / spec.bpm - 1) <= 0.01;
        const bar = 240 / spec.bpm;
        const off = ((f.downbeatSeconds % bar) + bar) % bar;
        const downbeatOk = Math.min(off, bar - off) < 0.07;
        tempoRight += Number(tempoOk);
        keyExact += Number(exact);
        keyRelative += Number(relative);
        aubioRight += Number(aubioOk);
        downbeatRight += Number(downbeatOk);
        lines.push(
          `${spec.name.padEnd(26)} ${String(spec.bpm).padStart(3)} → ${f.tempoBpm.toFixed(2).padStart(6)} ${tempoOk ? 'ok' : '--'}` +
            ` (aubio ${aubio ?? '?'})  ${NAMES[f.key.tonic]} ${f.key.mode} ${exact ? 'ok' : relative ? 'rel' : '--'}` +
            `  downbeat ${f.downbeatSeconds.toFixed(3)} ${downbeatOk ? 'ok' : '--'}`,
        );
      }
      const n = BEAT_SET.length;
      console.log(
        `${lines.join('\n')}\ntempo ${tempoRight}/${n} (aubio ${aubioRight}/${n}), key exact ${keyExact}/${n} + relative ${keyRelative}, downbeat ${downbeatRight}/${n}`,
      );
      expect(n).toBeGreaterThanOrEqual(20);
      expect(tempoRight / n).toBeGreaterThanOrEqual(0.9);
      expect((keyExact + keyRelative) / n).toBeGreaterThanOrEqual(0.9);
    },
    600_000,
  );
});

/**
 * sonic-pi-samples loops whose length is a whole number of beats (one or four bars); the tempo follows from
 * the length. Measured: 4 of 6 (breakbeat and safari come out at half tempo: both are sparse at the beat).
 */
const LOOPS: [name: string, beats: number][] = [
  ['loop_amen', 4],
  ['loop_amen_full', 16],
  ['loop_breakbeat', 4],
  ['loop_garzul', 16],
  ['loop_mika', 16],
  ['loop_safari', 16],
];

describe('song facts on sonic-pi loops', () => {
  it('finds the tempo of loops repeated to 20 s', async () => {
    let right = 0;
    let tried = 0;
    const lines: string[] = [];
    for (const [name, beats] of LOOPS) {
      const loop = await decodeWithFfmpeg(`/usr/share/sonic-pi/samples/${name}.flac`, RATE);
      if (!loop) continue;
      const bpm = (60 * beats * RATE) / loop[0]!.length;
      const times = Math.ceil((20 * RATE) / loop[0]!.length);
      const tiled = loop.map((ch) => {
        const out = new Float32Array(ch.length * times);
        for (let k = 0; k < times; k++) out.set(ch, k * ch.length);
        return out;
      });
      const { facts } = await analyzeSongFacts(tiled, RATE);
      const ok = Math.abs(facts.tempoBpm / bpm - 1) <= 0.01;
      tried++;
      right += Number(ok);
      lines.push(`${name.padEnd(18)} ${bpm.toFixed(2)} → ${facts.tempoBpm.toFixed(2)} ${ok ? 'ok' : '--'}`);
    }
    console.log(`${lines.join('\n')}\nsonic-pi loops: ${right}/${tried}`);
    if (tried > 0) expect(right).toBeGreaterThanOrEqual(4);
  }, 120_000);
});
