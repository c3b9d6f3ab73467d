import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { encodeWav } from '../../src/audio/codecs/wav-encoder';

const run = promisify(execFile);

/**
 * Test audio for the mixer specs, written as 16-bit PCM WAV files by the test itself: a tone-and-noise
 * instrumental and a vocal-like signal (a glottal pulse train through formant resonators, sung in syllables).
 */
export interface Signal {
  sampleRate: number;
  channels: Float32Array[];
}

/** 16-bit PCM WAV bytes by the app's own encoder, without dither (test inputs, the same bytes every run). */
export const wavBytes = ({ sampleRate, channels }: Signal): Buffer =>
  Buffer.concat(encodeWav(channels, sampleRate, { dither: false, maxBytes: Number.POSITIVE_INFINITY }));

/** A small deterministic noise source, so every run writes the same files. */
const noise = (seed: number) => {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  };
};

/** Chords of sines plus a hi-hat of high-passed noise on every eighth note at 120 bpm. */
export const instrumental = (seconds: number, sampleRate = 44_100, channelCount = 2): Signal => {
  const frames = Math.round(seconds * sampleRate);
  const channels = Array.from({ length: channelCount }, () => new Float32Array(frames));
  const rnd = noise(7);
  const chords = [
    [110, 138.6, 164.8],
    [98, 123.5, 146.8],
  ];
  let prev = 0;
  for (let i = 0; i < frames; i++) {
    const t = i / sampleRate;
    const chord = chords[Math.floor(t / 2) % 2]!;
    let tone = 0;
    for (const f of chord) tone += Math.sin(2 * Math.PI * f * t) + 0.3 * Math.sin(4 * Math.PI * f * t);
    const beat = t % 0.25;
    const white = rnd();
    const hat = (white - prev) * Math.exp(-beat * 60);
    prev = white;
    const kick =
      Math.sin(2 * Math.PI * 55 * beat) * Math.exp(-beat * 20) * (Math.floor(t / 0.25) % 2 === 0 ? 1 : 0);
    const v = 0.09 * tone + 0.12 * hat + 0.3 * kick;
    for (const [c, ch] of channels.entries()) ch[i] = c === 1 ? 0.95 * v : v;
  }
  return { sampleRate, channels };
};

/** A cheap long mono signal (a sine under noise) for the long-file specs: written fast, decoded slowly. */
export const toneAndNoise = (seconds: number, sampleRate = 44_100): Signal => {
  const frames = Math.round(seconds * sampleRate);
  const out = new Float32Array(frames);
  const rnd = noise(3);
  const step = (2 * Math.PI * 220) / sampleRate;
  for (let i = 0; i < frames; i++) out[i] = 0.3 * Math.sin(step * i) + 0.05 * rnd();
  return { sampleRate, channels: [out] };
};

/** Vowel-like: harmonics of a wavering pitch shaped by two formants, in 4 Hz syllables with short gaps. */
export const vocal = (seconds: number, sampleRate = 48_000): Signal => {
  const frames = Math.round(seconds * sampleRate);
  const out = new Float32Array(frames);
  const formants = [
    [700, 130],
    [1220, 70],
    [2600, 160],
  ] as const;
  let phase = 0;
  for (let i = 0; i < frames; i++) {
    const t = i / sampleRate;
    const f0 = 190 + 30 * Math.sin(2 * Math.PI * 0.25 * t) + 4 * Math.sin(2 * Math.PI * 5.5 * t);
    phase += f0 / sampleRate;
    let v = 0;
    for (let h = 1; h * f0 < 4000; h++) {
      const f = h * f0;
      let gain = 0;
      for (const [fc, bw] of formants) gain += 1 / (1 + ((f - fc) / bw) ** 2);
      v += (gain / h ** 0.5) * Math.sin(2 * Math.PI * h * phase);
    }
    const syllable = t % 0.5;
    const env = syllable < 0.42 ? Math.sin((Math.PI * syllable) / 0.42) : 0;
    out[i] = 0.12 * v * env;
  }
  return { sampleRate, channels: [out] };
};

/** Quiet white noise, the left channel inverted on the right: a bed standing in for a beat under a vocal. */
export const noiseBed = (seconds: number, level: number, sampleRate = 44_100): Signal => {
  const n = seconds * sampleRate;
  const l = new Float32Array(n);
  const r = new Float32Array(n);
  let seed = 5;
  for (let i = 0; i < n; i++) {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    l[i] = level * (seed / 4294967296 - 0.5);
    r[i] = -l[i]!;
  }
  return { sampleRate, channels: [l, r] };
};

export const writeWav = async (dir: string, name: string, signal: Signal): Promise<string> => {
  await mkdir(dir, { recursive: true });
  const path = join(dir, name);
  await writeFile(path, wavBytes(signal));
  return path;
};

/** Duration, codec and level of a file, read by ffprobe/ffmpeg (the reference decoders). */
export const probeAudio = async (path: string) => {
  const { stdout } = await run('/usr/bin/ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=format_name,duration:stream=codec_name,sample_rate,channels,duration_ts',
    '-of',
    'json',
    path,
  ]);
  const info = JSON.parse(stdout) as {
    format: { format_name: string; duration: string };
    streams: { codec_name: string; sample_rate: string; channels: number; duration_ts?: number }[];
  };
  const pcm = await run('/usr/bin/ffmpeg', ['-v', 'error', '-i', path, '-f', 'f32le', '-ac', '1', '-'], {
    encoding: 'buffer',
    maxBuffer: 1 << 30,
  });
  const samples = new Float32Array(
    pcm.stdout.buffer,
    pcm.stdout.byteOffset,
    Math.floor(pcm.stdout.byteLength / 4),
  );
  let peak = 0;
  let sum = 0;
  for (const s of samples) {
    const a = Math.abs(s);
    if (a > peak) peak = a;
    sum += s * s;
  }
  const stream = info.streams[0]!;
  return {
    format: info.format.format_name,
    codec: stream.codec_name,
    sampleRate: Number(stream.sample_rate),
    channels: stream.channels,
    duration: Number(info.format.duration),
    decodedSeconds: samples.length / Number(stream.sample_rate),
    peakDb: 20 * Math.log10(peak || 1e-12),
    rmsDb: 10 * Math.log10(sum / Math.max(1, samples.length) || 1e-24),
  };
};

/** Subscribes the signed-in user of `page` to a plan through the local provider's hosted checkout. */
export const subscribeViaLocalCheckout = async (page: Page, plan: 'pro' | 'unlimited' = 'pro') => {
  const session = await page.request.post('/api/create-checkout-session', {
    data: { lookup_key: `${plan}_plan` },
  });
  if (!session.ok()) throw new Error(`checkout session: ${session.status()} ${await session.text()}`);
  const { url } = (await session.json()) as { url: string };
  const year = (new Date().getUTCFullYear() + 3) % 100;
  const pay = await page.request.post(new URL(url).pathname, {
    form: { number: '4242424242424242', expiry: `12/${year}`, cvc: '123' },
    maxRedirects: 0,
  });
  if (pay.status() !== 303) throw new Error(`checkout: ${pay.status()} ${await pay.text()}`);
};

export const currentUser = async (page: Page) => {
  const res = await page.request.get('/api/auth/user');
  return (await res.json()) as {
    hasSubscription: boolean;
    mixCredits: number;
    masteringCredits: number;
    crowns: number;
  };
};
