/**
 * Beats with a known key and tempo, written as Standard MIDI Files (format 0) for fluidsynth to render: the
 * ground truth of the song-facts tests, the e2e and the bench (decision 196). Pure TS: bytes out, no I/O.
 */

export interface BeatSpec {
  name: string;
  bpm: number;
  /** Pitch class of the tonic, 0 = C. */
  tonic: number;
  mode: 'major' | 'minor';
  genre: Genre;
  /** Chord roots as scale degrees 0..6 with quality, one chord per bar, cycled. */
  progression: readonly Chord[];
  /** Delay of the off-beat eighths (steps 2, 6, 10, 14) as a fraction of a beat: 1/6 is a triplet shuffle. */
  swing8?: number;
  /** Delay of the odd sixteenths as a fraction of a sixteenth (hip-hop swing). */
  swing16?: number;
  /** Chord program (General MIDI, 0-based) and bass program. */
  chordProgram?: number;
  bassProgram?: number;
  seed?: number;
  bars?: number;
}

export type Genre = 'pop' | 'rock' | 'house' | 'hiphop' | 'funk' | 'shuffle' | 'dnb' | 'ballad' | 'latin';
export interface Chord {
  degree: number;
  quality: 'maj' | 'min' | 'dim';
}

const KICK = 36;
const SNARE = 38;
const CLAP = 39;
const HAT = 42;
const OPEN_HAT = 46;
const CRASH = 49;
const RIM = 37;
const SHAKER = 70;

type Hit = [note: number, step: number, velocity: number];

/** One bar of drums on a sixteenth grid. */
const drumBar = (genre: Genre): Hit[] => {
  const hits: Hit[] = [];
  const every = (note: number, steps: number[], v: number) => {
    for (const s of steps) hits.push([note, s, v]);
  };
  const eighths = [0, 2, 4, 6, 8, 10, 12, 14];
  const sixteenths = Array.from({ length: 16 }, (_, i) => i);
  switch (genre) {
    case 'pop':
      every(KICK, [0, 8, 10], 110);
      every(SNARE, [4, 12], 105);
      every(HAT, eighths, 70);
      break;
    case 'rock':
      every(KICK, [0, 6, 8], 115);
      every(SNARE, [4, 12], 115);
      every(HAT, eighths, 80);
      break;
    case 'house':
      every(KICK, [0, 4, 8, 12], 115);
      every(CLAP, [4, 12], 100);
      every(OPEN_HAT, [2, 6, 10, 14], 75);
      break;
    case 'hiphop':
      every(KICK, [0, 7, 10], 115);
      every(SNARE, [4, 12], 110);
      every(HAT, eighths, 75);
      every(HAT, [3, 11], 45);
      break;
    case 'funk':
      every(KICK, [0, 3, 6, 10], 110);
      every(SNARE, [4, 12], 110);
      every(SNARE, [7, 9, 15], 40);
      every(HAT, sixteenths, 60);
      break;
    case 'shuffle':
      every(KICK, [0, 8], 110);
      every(SNARE, [4, 12], 105);
      every(HAT, eighths, 75);
      break;
    case 'dnb':
      every(KICK, [0, 10], 115);
      every(SNARE, [4, 12], 115);
      every(HAT, eighths, 70);
      break;
    case 'ballad':
      every(KICK, [0, 8], 100);
      every(RIM, [4, 12], 90);
      every(HAT, sixteenths, 45);
      break;
    case 'latin':
      every(KICK, [0, 3, 8, 11], 100);
      every(RIM, [3, 6, 10, 12], 85);
      every(SHAKER, sixteenths, 50);
      break;
  }
  return hits;
};

/** Bass rhythm (steps) under each chord: the root, a fifth on the third beat for the busier styles. */
const bassSteps = (genre: Genre): [step: number, fifth: boolean, lengthSteps: number][] => {
  switch (genre) {
    case 'house':
      return [
        [2, false, 2],
        [6, false, 2],
        [10, false, 2],
        [14, false, 2],
      ];
    case 'funk':
      return [
        [0, false, 2],
        [3, false, 1],
        [6, true, 2],
        [10, false, 2],
        [14, false, 1],
      ];
    case 'latin':
      return [
        [0, false, 3],
        [6, true, 2],
        [8, false, 3],
        [14, true, 2],
      ];
    default:
      return [
        [0, false, 6],
        [7, false, 1],
        [8, true, 6],
      ];
  }
};

const MAJOR_SCALE = [0, 2, 4, 5, 7, 9, 11];
const MINOR_SCALE = [0, 2, 3, 5, 7, 8, 10];

const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const TICKS = 480;

interface Event {
  tick: number;
  bytes: number[];
}

const varLen = (n: number): number[] => {
  const out = [n & 0x7f];
  for (let v = n >> 7; v > 0; v >>= 7) out.unshift((v & 0x7f) | 0x80);
  return out;
};

/** The beat as the bytes of a format-0 Standard MIDI File. */
export const beatMidi = (spec: BeatSpec): Uint8Array => {
  const random = mulberry32(spec.seed ?? spec.bpm * 31 + spec.tonic);
  const bars = spec.bars ?? Math.max(8, Math.ceil((20 * spec.bpm) / 240));
  const step = TICKS / 4;
  const scale = spec.mode === 'major' ? MAJOR_SCALE : MINOR_SCALE;
  const events: Event[] = [];
  const note = (channel: number, pitch: number, tick: number, length: number, velocity: number) => {
    const v = Math.max(1, Math.min(127, Math.round(velocity)));
    events.push({ tick, bytes: [0x90 | channel, pitch, v] });
    events.push({ tick: tick + Math.max(1, length), bytes: [0x80 | channel, pitch, 0] });
  };
  const stepTick = (bar: number, s: number): number => {
    let t = bar * 16 * step + s * step;
    if (s % 4 === 2) t += Math.round((spec.swing8 ?? 0) * TICKS);
    if (s % 2 === 1) t += Math.round((spec.swing16 ?? 0) * step);
    return t;
  };
  events.push({ tick: 0, bytes: [0xc0, spec.chordProgram ?? 0] });
  events.push({ tick: 0, bytes: [0xc1, spec.bassProgram ?? 33] });
  const drums = drumBar(spec.genre);
  for (let bar = 0; bar < bars; bar++) {
    const chord = spec.progression[bar % spec.progression.length]!;
    const rootPc = (spec.tonic + scale[chord.degree % 7]!) % 12;
    const third = chord.quality === 'maj' ? 4 : 3;
    const fifth = chord.quality === 'dim' ? 6 : 7;
    // Close voicing around middle C so every chord sits in one octave band.
    const root = 60 + ((rootPc + 6) % 12) - 6;
    const chordTick = bar * 16 * step;
    const chordVel = 62 + random() * 8;
    for (const offset of [0, third, fifth]) note(0, root + offset, chordTick, 16 * step - 20, chordVel);
    if (spec.genre !== 'ballad')
      for (const offset of [0, third, fifth])
        note(0, root + offset, stepTick(bar, 8), 7 * step, chordVel - 8);
    const bassRoot = 36 + rootPc;
    for (const [s, isFifth, len] of bassSteps(spec.genre))
      note(1, bassRoot + (isFifth ? fifth : 0), stepTick(bar, s), len * step - 10, 95 + random() * 10);
    if (bar % 8 === 0) note(9, CRASH, chordTick, step, 90);
    for (const [pitch, s, v] of drums) note(9, pitch, stepTick(bar, s), step / 2, v * (0.9 + random() * 0.2));
  }
  const end = bars * 16 * step + TICKS * 2;
  events.sort((a, b) => a.tick - b.tick || (a.bytes[0]! & 0xf0) - (b.bytes[0]! & 0xf0));
  const usPerBeat = Math.round(60_000_000 / spec.bpm);
  const body: number[] = [
    0,
    0xff,
    0x51,
    3,
    (usPerBeat >> 16) & 0xff,
    (usPerBeat >> 8) & 0xff,
    usPerBeat & 0xff,
  ];
  let last = 0;
  for (const e of events) {
    body.push(...varLen(e.tick - last), ...e.bytes);
    last = e.tick;
  }
  body.push(...varLen(end - last), 0xff, 0x2f, 0);
  const header = [0x4d, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 0, 0, 1, (TICKS >> 8) & 0xff, TICKS & 0xff];
  const len = body.length;
  const track = [
    0x4d,
    0x54,
    0x72,
    0x6b,
    (len >>> 24) & 0xff,
    (len >> 16) & 0xff,
    (len >> 8) & 0xff,
    len & 0xff,
  ];
  return Uint8Array.from([...header, ...track, ...body]);
};
