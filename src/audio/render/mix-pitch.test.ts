import { describe, expect, it } from 'vitest';
import { mixArrangement } from '../../shared/api/tracks';
import { DEFAULT_PITCH_SETTINGS, type PitchSettings } from '../../shared/pitch-settings';
import type { TimelineClip } from '../model/clip';
import type { MixSource } from './mix-organise';
import { renderMix } from './mix-render';

const SR = 44_100;

/** A sung-like tone 30 cents sharp of A3 (220 Hz), with a breath of noise between two phrases. */
const detunedVoice = (): MixSource => {
  const n = 3 * SR;
  const out = new Float32Array(n);
  const hz = 220 * 2 ** (30 / 1200);
  let seed = 7;
  for (let i = 0; i < n; i++) {
    const t = i / SR;
    seed = (seed * 1664525 + 1013904223) >>> 0;
    if (t > 1.3 && t < 1.7) out[i] = 0.05 * (seed / 4294967296 - 0.5);
    else {
      let v = 0;
      for (let h = 1; h <= 12; h++) v += Math.sin(2 * Math.PI * hz * h * t) / h;
      out[i] = 0.2 * v * Math.min(1, (t % 1.5) * 20);
    }
  }
  return { channels: [out], sampleRate: SR };
};

const beat = (): MixSource => {
  const n = 3 * SR;
  const l = new Float32Array(n);
  for (let i = 0; i < n; i++) l[i] = 0.2 * Math.sin((2 * Math.PI * 55 * i) / SR);
  return { channels: [l, Float32Array.from(l)], sampleRate: SR };
};

const clips = (n: number): TimelineClip[] => [
  { id: 'v', trackType: 'vocals', sourceStart: 0, sourceEnd: n, position: 0 },
  { id: 'i', trackType: 'instrumental', sourceStart: 0, sourceEnd: n, position: 0 },
];

describe('pitch correction in the mixdown', () => {
  const vocals = detunedVoice();
  const instrumental = beat();
  const n = vocals.channels[0]!.length;
  const input = { vocals, instrumental, clips: clips(n), sampleRate: SR, length: n };
  const chromatic: PitchSettings = { ...DEFAULT_PITCH_SETTINGS, amount: 100, humanize: 0, retuneMs: 0 };

  it('at amount 0 the mix is bit-identical to a mix without correction', async () => {
    const plain = await renderMix(input, { vocalShare: 50, outputVolume: 80 });
    const zero = await renderMix(input, {
      vocalShare: 50,
      outputVolume: 80,
      pitch: { ...chromatic, amount: 0 },
    });
    for (const c of [0, 1]) {
      const a = plain.channels[c]!;
      const b = zero.channels[c]!;
      expect(
        Buffer.compare(
          Buffer.from(a.buffer, a.byteOffset, a.byteLength),
          Buffer.from(b.buffer, b.byteOffset, b.byteLength),
        ),
      ).toBe(0);
    }
  });

  it('at full amount the mix differs, and the source itself is never written', async () => {
    const before = Float32Array.from(vocals.channels[0]!);
    const plain = await renderMix(input, { vocalShare: 50, outputVolume: 80 });
    const tuned = await renderMix(input, { vocalShare: 50, outputVolume: 80, pitch: chromatic });
    let diff = 0;
    for (let i = 0; i < n; i++)
      diff = Math.max(diff, Math.abs(plain.channels[0]![i]! - tuned.channels[0]![i]!));
    expect(diff).toBeGreaterThan(0.01);
    expect(vocals.channels[0]).toEqual(before);
  });
});

describe('the arrangement schema carries the pitch settings', () => {
  const base = {
    vocalTrackId: 1,
    instrumentalTrackId: 2,
    sampleRate: 44_100,
    length: 100,
    vocalShare: 50,
    outputVolume: 80,
    clips: [],
  };
  it('accepts settings in range and refuses them out of range', () => {
    const ok = {
      amount: 80,
      retuneMs: 40,
      humanize: 50,
      key: { tonic: 9, mode: 'minor' },
      followSongKey: true,
    };
    expect(mixArrangement.safeParse({ ...base, pitch: ok }).success).toBe(true);
    expect(mixArrangement.safeParse({ ...base, pitch: { ...ok, key: null } }).success).toBe(true);
    expect(mixArrangement.safeParse(base).success).toBe(true);
    for (const bad of [
      { amount: 101 },
      { amount: -1 },
      { retuneMs: 401 },
      { humanize: 150 },
      { key: { tonic: 12, mode: 'minor' } },
      { key: { tonic: 0, mode: 'dorian' } },
    ])
      expect(mixArrangement.safeParse({ ...base, pitch: { ...ok, ...bad } }).success).toBe(false);
  });
});
