/**
 * The EBU Tech 3341 (v4, "EBU Mode" minimum requirements, Table 1) and Tech 3342 (v4, loudness range)
 * test cases that are defined as synthetic signals, generated here as the documents describe them and
 * measured by our meter (decision 124). Cases that use recorded programme (3341 #6-8, #10-11, #13-14,
 * 3342 #5-6) are not synthetic and are not listed.
 */
import { LoudnessMeter } from '../loudness';

export type Quantity = 'M' | 'S' | 'I' | 'M, S, I' | 'TP' | 'LRA';

export interface EbuCase {
  id: string;
  standard: 'Tech 3341' | 'Tech 3342';
  number: number;
  signal: string;
  quantity: Quantity;
  unit: 'LUFS' | 'dBTP' | 'LU';
  expected: number;
  /** Accepted tolerance below and above the expected value. */
  below: number;
  above: number;
  sampleRate: number;
  /** Stereo channels of the test signal. */
  generate: () => Float32Array[];
}

export interface CaseResult {
  id: string;
  standard: EbuCase['standard'];
  number: number;
  signal: string;
  quantity: Quantity;
  unit: EbuCase['unit'];
  expected: number;
  below: number;
  above: number;
  /** Our reading (for M/S cases, the one farthest from the expected value over the stated period). */
  measured: number;
  pass: boolean;
}

const RATE = 48_000;

/** A stereo 1 kHz sine (both channels in phase) made of [dBFS, seconds] segments, phase continuous. */
const toneSegments = (segments: readonly (readonly [number, number])[], frequency = 1000, rate = RATE) => {
  const total = segments.reduce((n, [, s]) => n + Math.round(s * rate), 0);
  const out = new Float32Array(total);
  let at = 0;
  for (const [db, seconds] of segments) {
    const amplitude = 10 ** (db / 20);
    const n = Math.round(seconds * rate);
    for (let i = 0; i < n; i++, at++) out[at] = amplitude * Math.sin((2 * Math.PI * frequency * at) / rate);
  }
  return [out, out.slice()];
};

/** `times` repetitions of a [dBFS, seconds] pattern. */
const repeat = (pattern: readonly (readonly [number, number])[], times: number) =>
  Array.from({ length: times }, () => pattern).flat();

/**
 * A stereo sine at `fraction` of the sample rate, peak `db` dBFS, starting at `phaseDegrees`, 1 s, with
 * 100 ms linear fades at both ends. The cases define a steady sine; cut off abruptly, its edges are steps
 * whose band-limited reconstruction really does overshoot (up to +0.8 dB at fs/8), which is a property of
 * the cut, not of the sine the case is about.
 */
const peakSine = (fraction: number, db: number, phaseDegrees: number, rate = RATE) => {
  const amplitude = 10 ** (db / 20);
  const phase = (phaseDegrees * Math.PI) / 180;
  const fade = rate / 10;
  const out = Float32Array.from(
    { length: rate },
    (_, i) =>
      amplitude * Math.min(1, i / fade, (rate - 1 - i) / fade) * Math.sin(2 * Math.PI * fraction * i + phase),
  );
  return [out, out.slice()];
};

const loudness = (
  number: number,
  signal: string,
  quantity: Quantity,
  expected: number,
  segments: readonly (readonly [number, number])[],
): EbuCase => ({
  id: `3341-${number}`,
  standard: 'Tech 3341',
  number,
  signal,
  quantity,
  unit: 'LUFS',
  expected,
  below: 0.1,
  above: 0.1,
  sampleRate: RATE,
  generate: () => toneSegments(segments),
});

const truePeak = (number: number, signal: string, expected: number, make: () => Float32Array[]): EbuCase => ({
  id: `3341-${number}`,
  standard: 'Tech 3341',
  number,
  signal,
  quantity: 'TP',
  unit: 'dBTP',
  expected,
  below: 0.4,
  above: 0.2,
  sampleRate: RATE,
  generate: make,
});

const range = (number: number, signal: string, expected: number, segments: [number, number][]): EbuCase => ({
  id: `3342-${number}`,
  standard: 'Tech 3342',
  number,
  signal,
  quantity: 'LRA',
  unit: 'LU',
  expected,
  below: 1,
  above: 1,
  sampleRate: RATE,
  generate: () => toneSegments(segments),
});

export const EBU_CASES: readonly EbuCase[] = [
  loudness(1, '1 kHz stereo sine, -23 dBFS, 20 s', 'M, S, I', -23, [[-23, 20]]),
  loudness(2, '1 kHz stereo sine, -33 dBFS, 20 s', 'M, S, I', -33, [[-33, 20]]),
  loudness(3, '1 kHz: -36 dBFS 10 s, -23 dBFS 60 s, -36 dBFS 10 s', 'I', -23, [
    [-36, 10],
    [-23, 60],
    [-36, 10],
  ]),
  loudness(4, '1 kHz: -72 / -36 dBFS 10 s each, -23 dBFS 60 s, -36 / -72 dBFS 10 s each', 'I', -23, [
    [-72, 10],
    [-36, 10],
    [-23, 60],
    [-36, 10],
    [-72, 10],
  ]),
  loudness(5, '1 kHz: -26 dBFS 20 s, -20 dBFS 20.1 s, -26 dBFS 20 s', 'I', -23, [
    [-26, 20],
    [-20, 20.1],
    [-26, 20],
  ]),
  loudness(
    9,
    '1 kHz: -20 dBFS 1.34 s and -30 dBFS 1.66 s, 5 times; S constant after 3 s',
    'S',
    -23,
    repeat(
      [
        [-20, 1.34],
        [-30, 1.66],
      ],
      5,
    ),
  ),
  loudness(
    12,
    '1 kHz: -20 dBFS 0.18 s and -30 dBFS 0.22 s, 25 times; M constant after 1 s',
    'M',
    -23,
    repeat(
      [
        [-20, 0.18],
        [-30, 0.22],
      ],
      25,
    ),
  ),
  truePeak(15, '48 kHz, sine at fs/4, -6 dBFS, phase 0°', -6, () => peakSine(1 / 4, -6, 0)),
  truePeak(16, '48 kHz, sine at fs/4, -6 dBTP, phase 45° (samples at -9 dBFS)', -6, () =>
    peakSine(1 / 4, -6, 45),
  ),
  truePeak(17, '48 kHz, sine at fs/6, -6 dBTP, phase 60°', -6, () => peakSine(1 / 6, -6, 60)),
  truePeak(18, '48 kHz, sine at fs/8, -6 dBTP, phase 67.5°', -6, () => peakSine(1 / 8, -6, 67.5)),
  truePeak(19, '48 kHz, sine at fs/4, phase 45°, samples at 0 dBFS (+3 dBTP)', 3, () =>
    peakSine(1 / 4, 20 * Math.log10(Math.SQRT2), 45),
  ),
  range(1, '1 kHz: -20 dBFS 20 s, then -30 dBFS 20 s', 10, [
    [-20, 20],
    [-30, 20],
  ]),
  range(2, '1 kHz: -20 dBFS 20 s, then -15 dBFS 20 s', 5, [
    [-20, 20],
    [-15, 20],
  ]),
  range(3, '1 kHz: -40 dBFS 20 s, then -20 dBFS 20 s', 20, [
    [-40, 20],
    [-20, 20],
  ]),
  range(4, '1 kHz: -50, -35, -20, -35, -50 dBFS, 20 s each', 15, [
    [-50, 20],
    [-35, 20],
    [-20, 20],
    [-35, 20],
    [-50, 20],
  ]),
];

/** The reading farthest from `expected` among `values`. */
const worst = (values: number[], expected: number) =>
  values.reduce((w, v) => (Math.abs(v - expected) > Math.abs(w - expected) ? v : w), values[0]!);

/** Measures one case with our meter and judges it against its tolerance. */
export const runCase = (c: EbuCase): CaseResult => {
  const channels = c.generate();
  const meter = new LoudnessMeter(c.sampleRate, channels.length, { truePeak: c.quantity === 'TP' });
  meter.push(channels);
  const blocks = meter.subBlockCount;
  // M is read once its 400 ms window is full, S once its 3 s window is; cases 12 and 9 state 1 s and 3 s.
  const momentary = () => Array.from({ length: blocks - 9 }, (_, k) => meter.momentary(k + 9));
  const shortTerm = () => Array.from({ length: blocks - 29 }, (_, k) => meter.shortTerm(k + 29));
  let measured: number;
  if (c.quantity === 'TP') {
    meter.report();
    measured = meter.truePeakDbtp;
  } else if (c.quantity === 'LRA') measured = meter.loudnessRange();
  else if (c.quantity === 'I') measured = meter.integrated();
  else if (c.quantity === 'M') measured = worst(momentary(), c.expected);
  else if (c.quantity === 'S') measured = worst(shortTerm(), c.expected);
  else measured = worst([...momentary(), ...shortTerm(), meter.integrated()], c.expected);
  const rounded = Math.round(measured * 100) / 100;
  const { generate: _, sampleRate: __, ...rest } = c;
  return {
    ...rest,
    measured: rounded,
    pass: measured >= c.expected - c.below - 1e-9 && measured <= c.expected + c.above + 1e-9,
  };
};
