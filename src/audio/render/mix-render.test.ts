import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { measureTruePeakDb } from '../dsp/true-peak';
import type { TimelineClip } from '../model/clip';
import { measureLufs } from './mix-kernels';
import type { MixSource } from './mix-organise';
import { MIX_ERRORS, type MixRenderInput, measureStems, renderMix, STEM_REFERENCE_LUFS } from './mix-render';
import { MIX_STAGES } from './mix-stages';

/** A channel's samples as a SHA-256 of their bytes: equal digests, bit-identical samples. */
const bytesOf = (c: Float32Array) =>
  createHash('sha256')
    .update(new Uint8Array(c.buffer, c.byteOffset, c.byteLength))
    .digest('hex');

const SR = 44_100;

/** A phrased buzz standing in for a voice, at a chosen level. */
const voice = (seconds: number, gain: number): MixSource => {
  const n = Math.round(seconds * SR);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / SR;
    const phrase = Math.sin(Math.PI * ((t % 3) / 3)) ** 2;
    let v = 0;
    for (let h = 1; h <= 10; h++) v += Math.sin(2 * Math.PI * 190 * h * t) / h;
    out[i] = gain * phrase * v;
  }
  return { channels: [out], sampleRate: SR };
};

/** Bass, chords and hats standing in for a beat, stereo. */
const beat = (seconds: number, gain: number): MixSource => {
  const n = Math.round(seconds * SR);
  const l = new Float32Array(n);
  const r = new Float32Array(n);
  let seed = 3;
  for (let i = 0; i < n; i++) {
    const t = i / SR;
    seed = (seed * 1664525 + 1013904223) >>> 0;
    const hat = (t * 4) % 1 < 0.03 ? (seed / 4294967296 - 0.5) * 0.6 : 0;
    const bass = 0.6 * Math.sin(2 * Math.PI * 55 * t) * (1 - ((t * 2) % 1));
    const chord =
      0.2 *
      (Math.sin(2 * Math.PI * 220 * t) + Math.sin(2 * Math.PI * 277 * t) + Math.sin(2 * Math.PI * 330 * t));
    l[i] = gain * (bass + chord + hat);
    r[i] = gain * (bass + 0.8 * chord - hat);
  }
  return { channels: [l, r], sampleRate: SR };
};

const fullClips = (v: MixSource | null, i: MixSource | null, vocalPosition = 0): TimelineClip[] => [
  ...(v
    ? [
        {
          id: 'vocals-clip',
          trackType: 'vocals' as const,
          sourceStart: 0,
          sourceEnd: v.channels[0]!.length,
          position: vocalPosition,
        },
      ]
    : []),
  ...(i
    ? [
        {
          id: 'instrumental-clip',
          trackType: 'instrumental' as const,
          sourceStart: 0,
          sourceEnd: i.channels[0]!.length,
          position: 0,
        },
      ]
    : []),
];

const input = (
  v: MixSource | null,
  i: MixSource | null,
  length = 12 * SR,
  vocalPosition = 0,
): MixRenderInput => ({
  vocals: v,
  instrumental: i,
  clips: fullClips(v, i, vocalPosition),
  sampleRate: SR,
  length,
});

/** Loudness each stem contributes to the mix: render with the other one silent, same measured gains. */
const contributions = async (v: MixSource, i: MixSource, vocalShare: number) => {
  const full = input(v, i);
  const loudness = measureStems(full);
  const settings = { vocalShare, outputVolume: 25 };
  const silentV: MixSource = { channels: [new Float32Array(v.channels[0]!.length)], sampleRate: SR };
  const silentI: MixSource = { channels: [new Float32Array(i.channels[0]!.length)], sampleRate: SR };
  const onlyVocal = await renderMix({ ...full, instrumental: silentI }, settings, { loudness });
  const onlyInst = await renderMix({ ...full, vocals: silentV }, settings, { loudness });
  return { vocal: measureLufs(onlyVocal.channels, SR), inst: measureLufs(onlyInst.channels, SR) };
};

describe('renderMix', () => {
  it('refuses to mix down without both tracks', async () => {
    await expect(
      renderMix(input(voice(5, 0.1), null), { vocalShare: 50, outputVolume: 100 }),
    ).rejects.toThrow(MIX_ERRORS.missingBuffers);
  });

  it('matches each stem to the reference loudness whatever its level', () => {
    const quiet = measureStems(input(voice(10, 0.01), beat(10, 0.5)));
    expect(quiet.vocalsLufs + quiet.vocalsMatchDb).toBeCloseTo(STEM_REFERENCE_LUFS, 6);
    expect(quiet.instrumentalLufs + quiet.instrumentalMatchDb).toBeCloseTo(STEM_REFERENCE_LUFS, 6);
    expect(quiet.vocalsLufs).toBeLessThan(quiet.instrumentalLufs - 20);
  });

  it("makes 'balanced' balanced: a quiet vocal over a loud beat ends up as loud as the beat", async () => {
    const c = await contributions(voice(12, 0.01), beat(12, 0.6), 50);
    expect(Math.abs(c.vocal - c.inst)).toBeLessThan(1.5);
  });

  it('puts the vocal ~9.5 LU over the beat when forward, and under it when back', async () => {
    const v = voice(12, 0.05);
    const i = beat(12, 0.3);
    const forward = await contributions(v, i, 75);
    const back = await contributions(v, i, 25);
    expect(forward.vocal - forward.inst).toBeGreaterThan(8);
    expect(forward.vocal - forward.inst).toBeLessThan(12);
    expect(back.inst - back.vocal).toBeGreaterThan(8);
    expect(back.inst - back.vocal).toBeLessThan(12);
  });

  it('runs the seven stages in order with monotonic progress, to the full length, under -1 dBTP', async () => {
    const stages: string[] = [];
    let last = -1;
    let monotonic = true;
    const result = await renderMix(
      input(voice(8, 0.5), beat(10, 0.9), 61 * SR, 3 * SR),
      { vocalShare: 75, outputVolume: 100 },
      {
        onProgress: (p) => {
          if (stages.at(-1) !== p.stage) stages.push(p.stage);
          if (p.overall < last) monotonic = false;
          last = p.overall;
        },
      },
    );
    expect(stages).toEqual([...MIX_STAGES]);
    expect(monotonic).toBe(true);
    expect(last).toBe(1);
    expect(result.channels.map((c) => c.length)).toEqual([61 * SR, 61 * SR]);
    expect(result.channels.every((c) => c.every(Number.isFinite))).toBe(true);
    expect(measureTruePeakDb(result.channels)).toBeLessThanOrEqual(-1 + 1e-3);
    // The beat ends at 10 s; the vocal (at 3 s for 8 s) ends at 11 s; after that only reverb tail, then silence.
    const tail = result.channels[0]!.subarray(13 * SR);
    expect(tail.every((v) => Math.abs(v) < 1e-3)).toBe(true);
  });

  it('applies the output volume before the limiter', async () => {
    const v = voice(6, 0.05);
    const i = beat(6, 0.2);
    const loud = await renderMix(input(v, i), { vocalShare: 50, outputVolume: 40 });
    const soft = await renderMix(input(v, i), { vocalShare: 50, outputVolume: 20 });
    expect(measureLufs(loud.channels, SR) - measureLufs(soft.channels, SR)).toBeCloseTo(6.02, 1);
    const silent = await renderMix(input(v, i), { vocalShare: 50, outputVolume: 0 });
    expect(silent.channels[0]!.every((x) => x === 0)).toBe(true);
  });

  it('renders a preview window with the whole-timeline balance', async () => {
    const v = voice(30, 0.05);
    const i = beat(30, 0.3);
    const full = input(v, i, 60 * SR);
    const loudness = measureStems(full);
    const preview = await renderMix(
      full,
      { vocalShare: 50, outputVolume: 100 },
      {
        window: { start: 6 * SR, length: 10 * SR },
        loudness,
      },
    );
    expect(preview.channels[0]!.length).toBe(10 * SR);
    expect(preview.report.vocalsMatchDb).toBe(loudness.vocalsMatchDb);
  });

  it('stops between blocks when aborted', async () => {
    const controller = new AbortController();
    const job = renderMix(
      input(voice(20, 0.1), beat(20, 0.3), 60 * SR),
      { vocalShare: 50, outputVolume: 100 },
      {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.stage === 'eq') controller.abort();
        },
      },
    );
    await expect(job).rejects.toThrow(/abort/i);
  });

  it('renders a mono vocal bit-identically to the same vocal as two identical channels (its fast path)', async () => {
    const mono = voice(14, 0.05);
    const twin: MixSource = { channels: [mono.channels[0]!, mono.channels[0]!.slice()], sampleRate: SR };
    const i = beat(12, 0.3);
    for (const vocalShare of [50, 75]) {
      const settings = { vocalShare, outputVolume: 90 };
      const fast = await renderMix(input(mono, i, 16 * SR, SR), settings);
      const general = await renderMix(input(twin, i, 16 * SR, SR), settings);
      expect(fast.report).toEqual(general.report);
      for (let c = 0; c < 2; c++) {
        const a = fast.channels[c]!;
        const b = general.channels[c]!;
        let differing = 0;
        for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) differing++;
        expect(differing).toBe(0);
      }
    }
    expect(measureStems(input(mono, i))).toEqual(measureStems(input(twin, i)));
  });

  it('reads whole-file sources without writing to them: a second render is identical', async () => {
    const v = voice(10, 0.05);
    const i = beat(10, 0.3);
    const before = [...v.channels, ...i.channels].map((c) => c.slice());
    const whole = input(v, i, 10 * SR);
    const first = await renderMix(whole, { vocalShare: 50, outputVolume: 100 });
    // Compared as bytes: a deep toEqual over millions of samples took most of this test's time.
    expect([...v.channels, ...i.channels].map(bytesOf)).toEqual(before.map(bytesOf));
    const second = await renderMix(whole, { vocalShare: 50, outputVolume: 100 });
    expect(second.channels.map(bytesOf)).toEqual(first.channels.map(bytesOf));
    expect(first.channels[0]).not.toBe(i.channels[0]);
  });
});
