/**
 * Test material for pitch correction: a melody "sung" by a General MIDI voice, each note detuned by a known
 * number of cents through pitch bend (optionally with vibrato), rendered by fluidsynth; and the independent
 * measurement with aubio's `aubiopitch`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeWav } from '../../codecs/wav-decoder';
import { floatWav } from '../node-tools.test-helper';

export const SOUNDFONT = '/usr/share/sounds/sf2/FluidR3_GM.sf2';
/** GM programs counted from 0: 53 "Voice Oohs", 52 "Choir Aahs". */
export const VOICE_OOHS = 53;
export const CHOIR_AAHS = 52;

export interface SungNote {
  midi: number;
  cents: number;
  /** Seconds. */
  start: number;
  duration: number;
}

/** An A minor melody, each note 20-40 cents off (median |cents| 28). */
export const A_MINOR_MELODY: SungNote[] = (() => {
  const notes = [57, 60, 62, 64, 62, 60, 59, 57, 64, 65, 64, 62, 60, 57];
  const cents = [25, -30, 20, -40, 35, -25, 30, -20, 40, -35, 22, -28, 33, -24];
  return notes.map((midi, i) => ({ midi, cents: cents[i]!, start: 0.3 + i * 0.6, duration: 0.5 }));
})();

export const toolsAvailable = (): boolean => {
  try {
    execFileSync('fluidsynth', ['--version'], { stdio: 'ignore' });
    execFileSync('aubiopitch', ['--help'], { stdio: 'ignore' });
    return fs.existsSync(SOUNDFONT);
  } catch {
    return false;
  }
};

const vlq = (n: number): number[] => {
  const bytes = [n & 0x7f];
  let v = n >> 7;
  while (v > 0) {
    bytes.unshift((v & 0x7f) | 0x80);
    v >>= 7;
  }
  return bytes;
};

/** A format-0 MIDI file (480 ticks per quarter at 120 BPM, so 960 ticks a second). */
export const melodyMidi = (notes: readonly SungNote[], program: number, vibratoCents = 0): Uint8Array => {
  const tps = 960;
  const events: { tick: number; bytes: number[]; order: number }[] = [];
  const at = (seconds: number, bytes: number[], order = 1) =>
    events.push({ tick: Math.round(seconds * tps), bytes, order });
  // Pitch-bend range ±2 semitones (RPN 0), then the voice.
  at(0, [0xb0, 101, 0], 0);
  at(0, [0xb0, 100, 0], 0);
  at(0, [0xb0, 6, 2], 0);
  at(0, [0xb0, 38, 0], 0);
  at(0, [0xc0, program], 0);
  const bend = (seconds: number, cents: number, order: number) => {
    const v = Math.max(0, Math.min(16383, Math.round(8192 + (cents / 200) * 8192)));
    at(seconds, [0xe0, v & 0x7f, v >> 7], order);
  };
  for (const note of notes) {
    bend(Math.max(0, note.start - 0.05), note.cents, 1);
    at(note.start, [0x90, note.midi, 96], 2);
    if (vibratoCents > 0)
      for (let t = 0.15; t < note.duration; t += 0.01)
        bend(note.start + t, note.cents + vibratoCents * Math.sin(2 * Math.PI * 5.5 * (t - 0.15)), 1);
    at(note.start + note.duration, [0x80, note.midi, 0], 0);
  }
  events.sort((a, b) => a.tick - b.tick || a.order - b.order);
  const body: number[] = [0x00, 0xff, 0x51, 0x03, 0x07, 0xa1, 0x20];
  let tick = 0;
  for (const e of events) {
    body.push(...vlq(e.tick - tick), ...e.bytes);
    tick = e.tick;
  }
  body.push(0x00, 0xff, 0x2f, 0x00);
  const header = [0x4d, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xe0];
  const len = body.length;
  const track = [0x4d, 0x54, 0x72, 0x6b, len >>> 24, (len >> 16) & 0xff, (len >> 8) & 0xff, len & 0xff];
  return Uint8Array.from([...header, ...track, ...body]);
};

export const tempDir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'pitch-'));

/** Render a MIDI file with fluidsynth (no reverb or chorus, which would smear the pitch) to mono float. */
export const renderMidi = (
  dir: string,
  name: string,
  midi: Uint8Array,
  sampleRate = 44_100,
): Float32Array => {
  const mid = path.join(dir, `${name}.mid`);
  const wav = path.join(dir, `${name}.wav`);
  fs.writeFileSync(mid, midi);
  execFileSync(
    'fluidsynth',
    ['-ni', '-R', '0', '-C', '0', '-g', '0.8', '-F', wav, '-r', String(sampleRate), SOUNDFONT, mid],
    {
      stdio: 'ignore',
    },
  );
  const decoded = decodeWav(fs.readFileSync(wav));
  const [l, r = l] = decoded.channels as [Float32Array, Float32Array?];
  const mono = new Float32Array(l.length);
  for (let i = 0; i < mono.length; i++) mono[i] = 0.5 * (l[i]! + r[i]!);
  return mono;
};

/** aubiopitch (yin: its yinfft reads harmonic tones 4-16 cents sharp below 250 Hz, yin is exact on them) over a signal: [seconds, midi] pairs, 0 where aubio hears no pitch. */
export const aubioPitch = (
  dir: string,
  name: string,
  signal: Float32Array,
  sampleRate: number,
): [number, number][] => {
  const wav = path.join(dir, `${name}-measure.wav`);
  fs.writeFileSync(wav, floatWav([signal], sampleRate));
  return aubioPitchOfFile(wav);
};

export const aubioPitchOfFile = (file: string): [number, number][] => {
  const text = execFileSync('aubiopitch', ['-i', file, '-u', 'midi', '-p', 'yin'], {
    encoding: 'utf8',
  });
  return text
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
};

const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : Number.NaN;
};

/**
 * Per note: the median of aubio's pitch over the note's middle, and its distance in cents from the nearest
 * note of `classes`. Returns the per-note |cents| and their median.
 */
export const centsOffPerNote = (
  measured: [number, number][],
  notes: readonly SungNote[],
  classes: readonly number[],
): { perNote: number[]; median: number; noteMedians: number[] } => {
  const perNote: number[] = [];
  const noteMedians: number[] = [];
  for (const note of notes) {
    const inside = measured
      .filter(([t, m]) => t >= note.start + 0.12 && t <= note.start + note.duration - 0.08 && m > 20)
      .map(([, m]) => m);
    const m = median(inside);
    noteMedians.push(m);
    let best = Number.POSITIVE_INFINITY;
    for (let n = Math.floor(m) - 2; n <= Math.floor(m) + 3; n++)
      if (classes.includes(((n % 12) + 12) % 12)) best = Math.min(best, Math.abs(m - n) * 100);
    perNote.push(best);
  }
  return { perNote, median: median(perNote), noteMedians };
};
