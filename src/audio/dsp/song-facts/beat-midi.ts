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

const I = (degree: number, quality: Chord['quality']): Chord => ({ degree, quality });

/**
 * The test set: 24 beats, nine styles, twelve tonics, major and minor, 70–170 BPM, three of them swung. The
 * minor progressions include i–VI–III–VII, whose chords are those of the relative major's vi–IV–I–V.
 */
export const BEAT_SET: readonly BeatSpec[] = [
  {
    name: 'pop-C-major-96',
    genre: 'pop',
    bpm: 96,
    tonic: 0,
    mode: 'major',
    progression: [I(0, 'maj'), I(4, 'maj'), I(5, 'min'), I(3, 'maj')],
  },
  {
    name: 'pop-A-minor-100',
    genre: 'pop',
    bpm: 100,
    tonic: 9,
    mode: 'minor',
    progression: [I(0, 'min'), I(5, 'maj'), I(2, 'maj'), I(6, 'maj')],
    chordProgram: 4,
  },
  {
    name: 'rock-E-minor-128',
    genre: 'rock',
    bpm: 128,
    tonic: 4,
    mode: 'minor',
    progression: [I(0, 'min'), I(3, 'min'), I(4, 'maj'), I(0, 'min')],
    chordProgram: 29,
    bassProgram: 34,
  },
  {
    name: 'rock-G-major-140',
    genre: 'rock',
    bpm: 140,
    tonic: 7,
    mode: 'major',
    progression: [I(0, 'maj'), I(3, 'maj'), I(4, 'maj'), I(0, 'maj')],
    chordProgram: 29,
    bassProgram: 34,
  },
  {
    name: 'house-F-minor-124',
    genre: 'house',
    bpm: 124,
    tonic: 5,
    mode: 'minor',
    progression: [I(0, 'min'), I(6, 'maj'), I(5, 'maj'), I(6, 'maj')],
    chordProgram: 81,
    bassProgram: 38,
  },
  {
    name: 'house-D-major-122',
    genre: 'house',
    bpm: 122,
    tonic: 2,
    mode: 'major',
    progression: [I(0, 'maj'), I(5, 'min'), I(3, 'maj'), I(4, 'maj')],
    chordProgram: 16,
    bassProgram: 38,
  },
  {
    name: 'hiphop-swing-D-minor-90',
    genre: 'hiphop',
    bpm: 90,
    tonic: 2,
    mode: 'minor',
    progression: [I(0, 'min'), I(3, 'min'), I(0, 'min'), I(4, 'maj')],
    swing16: 0.5,
    chordProgram: 4,
  },
  {
    name: 'hiphop-swing-Bb-major-86',
    genre: 'hiphop',
    bpm: 86,
    tonic: 10,
    mode: 'major',
    progression: [I(1, 'min'), I(4, 'maj'), I(0, 'maj'), I(0, 'maj')],
    swing16: 0.4,
    chordProgram: 0,
  },
  {
    name: 'hiphop-G-minor-78',
    genre: 'hiphop',
    bpm: 78,
    tonic: 7,
    mode: 'minor',
    progression: [I(0, 'min'), I(5, 'maj'), I(3, 'min'), I(4, 'maj')],
    chordProgram: 48,
  },
  {
    name: 'funk-E-major-108',
    genre: 'funk',
    bpm: 108,
    tonic: 4,
    mode: 'major',
    progression: [I(0, 'maj'), I(3, 'maj'), I(0, 'maj'), I(4, 'maj')],
    chordProgram: 17,
    bassProgram: 36,
  },
  {
    name: 'funk-C-minor-112',
    genre: 'funk',
    bpm: 112,
    tonic: 0,
    mode: 'minor',
    progression: [I(0, 'min'), I(3, 'min'), I(6, 'maj'), I(0, 'min')],
    chordProgram: 4,
    bassProgram: 36,
  },
  {
    name: 'shuffle-A-major-116',
    genre: 'shuffle',
    bpm: 116,
    tonic: 9,
    mode: 'major',
    progression: [I(0, 'maj'), I(3, 'maj'), I(0, 'maj'), I(4, 'maj')],
    swing8: 1 / 6,
    chordProgram: 16,
  },
  {
    name: 'shuffle-B-minor-104',
    genre: 'shuffle',
    bpm: 104,
    tonic: 11,
    mode: 'minor',
    progression: [I(0, 'min'), I(3, 'min'), I(4, 'maj'), I(0, 'min')],
    swing8: 1 / 6,
    chordProgram: 0,
  },
  {
    name: 'dnb-F#-minor-170',
    genre: 'dnb',
    bpm: 170,
    tonic: 6,
    mode: 'minor',
    progression: [I(0, 'min'), I(5, 'maj'), I(6, 'maj'), I(0, 'min')],
    chordProgram: 89,
    bassProgram: 38,
  },
  {
    name: 'dnb-Eb-major-165',
    genre: 'dnb',
    bpm: 165,
    tonic: 3,
    mode: 'major',
    progression: [I(0, 'maj'), I(5, 'min'), I(1, 'min'), I(4, 'maj')],
    chordProgram: 89,
    bassProgram: 38,
  },
  {
    name: 'ballad-Ab-major-70',
    genre: 'ballad',
    bpm: 70,
    tonic: 8,
    mode: 'major',
    progression: [I(0, 'maj'), I(4, 'maj'), I(5, 'min'), I(3, 'maj')],
    chordProgram: 0,
    bassProgram: 32,
  },
  {
    name: 'ballad-C#-minor-74',
    genre: 'ballad',
    bpm: 74,
    tonic: 1,
    mode: 'minor',
    progression: [I(0, 'min'), I(5, 'maj'), I(3, 'min'), I(4, 'maj')],
    chordProgram: 48,
    bassProgram: 32,
  },
  {
    name: 'latin-D-minor-132',
    genre: 'latin',
    bpm: 132,
    tonic: 2,
    mode: 'minor',
    progression: [I(0, 'min'), I(3, 'min'), I(4, 'maj'), I(0, 'min')],
    chordProgram: 24,
    bassProgram: 32,
  },
  {
    name: 'latin-F-major-150',
    genre: 'latin',
    bpm: 150,
    tonic: 5,
    mode: 'major',
    progression: [I(0, 'maj'), I(1, 'min'), I(4, 'maj'), I(0, 'maj')],
    chordProgram: 24,
    bassProgram: 32,
  },
  {
    name: 'pop-B-major-118',
    genre: 'pop',
    bpm: 118,
    tonic: 11,
    mode: 'major',
    progression: [I(0, 'maj'), I(5, 'min'), I(3, 'maj'), I(4, 'maj')],
    chordProgram: 5,
  },
  {
    name: 'rock-A-minor-160',
    genre: 'rock',
    bpm: 160,
    tonic: 9,
    mode: 'minor',
    progression: [I(0, 'min'), I(6, 'maj'), I(5, 'maj'), I(6, 'maj')],
    chordProgram: 30,
    bassProgram: 34,
  },
  {
    name: 'house-G#-minor-126',
    genre: 'house',
    bpm: 126,
    tonic: 8,
    mode: 'minor',
    progression: [I(0, 'min'), I(5, 'maj'), I(2, 'maj'), I(6, 'maj')],
    chordProgram: 81,
    bassProgram: 38,
  },
  {
    name: 'shuffle-swing-F-major-82',
    genre: 'shuffle',
    bpm: 82,
    tonic: 5,
    mode: 'major',
    progression: [I(0, 'maj'), I(5, 'min'), I(1, 'min'), I(4, 'maj')],
    swing8: 1 / 6,
    chordProgram: 4,
    bassProgram: 32,
  },
  {
    name: 'funk-Db-major-96',
    genre: 'funk',
    bpm: 96,
    tonic: 1,
    mode: 'major',
    progression: [I(0, 'maj'), I(3, 'maj'), I(4, 'maj'), I(3, 'maj')],
    chordProgram: 17,
    bassProgram: 36,
  },
];
