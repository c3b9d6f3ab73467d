import { describe, expect, it } from 'vitest';
import { BiquadCascade, type BiquadDesign, biquadResponseDb, designBiquad } from './biquad';

const RATE = 44100;

/** Measured gain of a filter at `frequency`: steady-state RMS ratio of a filtered sine. */
const measuredGainDb = (designs: BiquadDesign[], frequency: number): number => {
  const cascade = new BiquadCascade(designs.length, 1);
  for (const [i, d] of designs.entries()) cascade.setSection(i, designBiquad(d, RATE));
  const seconds = 2;
  const n = RATE * seconds;
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = 0.5 * Math.sin((2 * Math.PI * frequency * i) / RATE);
  const input = data.slice();
  cascade.process(data, 0);
  // Skip the first second (transient) and compare an integer number of periods' worth of energy.
  let inE = 0;
  let outE = 0;
  for (let i = RATE; i < n; i++) {
    inE += input[i]! * input[i]!;
    outE += data[i]! * data[i]!;
  }
  return 10 * Math.log10(outE / inE);
};

describe('RBJ biquads', () => {
  const cases: { design: BiquadDesign; checks: [number, number | null][] }[] = [
    // [frequency, expected analytic landmark (or null: just compare measured with analytic)]
    {
      design: { kind: 'highpass', frequency: 30, q: Math.SQRT1_2 },
      checks: [
        [30, -3.0103],
        [10, null],
        [1000, 0],
      ],
    },
    {
      design: { kind: 'lowshelf', frequency: 200, gainDb: 6 },
      checks: [
        [20, null],
        [200, 3],
        [5000, null],
      ],
    },
    {
      design: { kind: 'lowshelf', frequency: 200, gainDb: -6 },
      checks: [
        [20, null],
        [200, -3],
      ],
    },
    {
      design: { kind: 'highshelf', frequency: 8000, gainDb: 6 },
      checks: [
        [1000, null],
        [8000, 3],
        [18000, null],
      ],
    },
    {
      design: { kind: 'highshelf', frequency: 8000, gainDb: -4.5 },
      checks: [
        [8000, -2.25],
        [16000, null],
      ],
    },
    {
      design: { kind: 'peaking', frequency: 3000, gainDb: 2.4, q: 1 },
      checks: [
        [3000, 2.4],
        [500, null],
        [9000, null],
      ],
    },
  ];

  for (const { design, checks } of cases) {
    it(`${design.kind} ${design.frequency} Hz ${design.gainDb ?? ''} dB matches its analytic response`, () => {
      const c = designBiquad(design, RATE);
      for (const [f, landmark] of checks) {
        const analytic = biquadResponseDb(c, f, RATE);
        if (landmark !== null) expect(analytic).toBeCloseTo(landmark, 2);
        expect(Math.abs(measuredGainDb([design], f) - analytic)).toBeLessThan(0.1);
      }
    });
  }

  it('a cascade equals the sum of its sections in dB', () => {
    const designs: BiquadDesign[] = [
      { kind: 'highpass', frequency: 30 },
      { kind: 'lowshelf', frequency: 200, gainDb: 1.2 },
      { kind: 'highshelf', frequency: 8000, gainDb: -1.2 },
      { kind: 'peaking', frequency: 3000, gainDb: 2, q: 0.8 },
    ];
    for (const f of [25, 100, 1000, 3000, 12000]) {
      const analytic = designs.reduce((sum, d) => sum + biquadResponseDb(designBiquad(d, RATE), f, RATE), 0);
      expect(Math.abs(measuredGainDb(designs, f) - analytic)).toBeLessThan(0.1);
    }
  });

  it('processing in blocks equals processing at once, and decays to exact zeros (no denormals)', () => {
    const design = designBiquad({ kind: 'peaking', frequency: 3000, gainDb: 3, q: 1 }, RATE);
    const a = new BiquadCascade(1, 1);
    const b = new BiquadCascade(1, 1);
    a.setSection(0, design);
    b.setSection(0, design);
    const signal = new Float32Array(RATE * 10);
    for (let i = 0; i < 4410; i++) signal[i] = Math.sin(i * 0.3);
    const whole = signal.slice();
    a.process(whole, 0);
    const blocks = signal.slice();
    for (let i = 0; i < blocks.length; i += 128) b.process(blocks, 0, i, Math.min(blocks.length, i + 128));
    // Equal up to the denormal flush, which happens at block ends (values below 1e-25 become 0).
    let worst = 0;
    for (let i = 0; i < whole.length; i++) worst = Math.max(worst, Math.abs(blocks[i]! - whole[i]!));
    expect(worst).toBeLessThan(1e-20);
    expect(Math.abs(whole[whole.length - 1]!)).toBe(0);
  });
});

describe('stereo cascade', () => {
  // Sections run two at a time in one loop (an odd one alone): 1..4 covers a single, a pair, both, two pairs.
  it('gives exactly the per-channel results', () => {
    for (const sections of [1, 2, 3, 4]) {
      const designs: BiquadDesign[] = [
        { kind: 'lowshelf', frequency: 200, gainDb: 2 },
        { kind: 'highshelf', frequency: 8000, gainDb: -3 },
        { kind: 'peaking', frequency: 3000, gainDb: 2.4, q: 1 },
        { kind: 'highpass', frequency: 30, q: Math.SQRT1_2 },
      ].slice(0, sections) as BiquadDesign[];
      const a = new BiquadCascade(sections, 2);
      const b = new BiquadCascade(sections, 2);
      for (const [i, d] of designs.entries()) {
        a.setSection(i, designBiquad(d, RATE));
        b.setSection(i, designBiquad(d, RATE));
      }
      const left = new Float32Array(RATE);
      const right = new Float32Array(RATE);
      for (let i = 0; i < RATE; i++) {
        left[i] = Math.sin(i * 0.05) * 0.5 + Math.sin(i * 1.3) * 0.2;
        right[i] = Math.cos(i * 0.011) * 0.4;
      }
      const l2 = left.slice();
      const r2 = right.slice();
      for (let i = 0; i < RATE; i += 4096) {
        const end = Math.min(RATE, i + 4096);
        a.processStereo(left, right, i, end);
        b.process(l2, 0, i, end);
        b.process(r2, 1, i, end);
      }
      let diff = 0;
      for (let i = 0; i < RATE; i++) if (left[i] !== l2[i] || right[i] !== r2[i]) diff++;
      expect(diff).toBe(0);
    }
  });
});
