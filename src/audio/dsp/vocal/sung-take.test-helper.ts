/**
 * A sung take for issue 26's tests: a General MIDI voice ("Voice Oohs", program 54) rendered by fluidsynth
 * with Debian's FluidR3_GM soundfont, three four-note phrases with pauses between them; the middle phrase
 * 8 dB quieter and steady hiss at -50 dBFS added afterwards. Node only; null when fluidsynth is missing.
 */
import { decodeWithFfmpeg, loadNodeTools } from '../node-tools.test-helper';
import { noise } from './dirty-take.test-helper';

const SOUNDFONT = '/usr/share/sounds/sf2/FluidR3_GM.sf2';

const vlq = (n: number): number[] => {
  const out = [n & 0x7f];
  for (let v = n >> 7; v > 0; v >>= 7) out.unshift((v & 0x7f) | 0x80);
  return out;
};

/** A format-0 MIDI file: `notes` as [start beat, length beats, key], 120 BPM, 480 ticks a beat. */
const midiFile = (program: number, notes: readonly [number, number, number][]): Uint8Array => {
  const events: [number, number[]][] = [[0, [0xc0, program]]];
  for (const [start, length, key] of notes) {
    events.push([Math.round(start * 480), [0x90, key, 100]]);
    events.push([Math.round((start + length) * 480), [0x80, key, 0]]);
  }
  events.sort((a, b) => a[0] - b[0]);
  const body: number[] = [];
  let now = 0;
  for (const [tick, data] of events) {
    body.push(...vlq(tick - now), ...data);
    now = tick;
  }
  body.push(0, 0xff, 0x2f, 0);
  const u32 = (v: number) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
  return Uint8Array.from([
    ...[0x4d, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xe0],
    ...[0x4d, 0x54, 0x72, 0x6b, ...u32(body.length)],
    ...body,
  ]);
};

export interface SungTake {
  vocal: Float32Array;
  sampleRate: number;
  phrases: { start: number; end: number }[];
}

export const sungTake = async (sampleRate = 44_100): Promise<SungTake | null> => {
  const { child, fs, tmp } = await loadNodeTools();
  if (!fs.existsSync(SOUNDFONT)) return null;
  if (child.spawnSync('fluidsynth', ['--version'], { encoding: 'utf8' }).status !== 0) return null;
  // Phrases at beats 2, 10, 18 (120 BPM: 1, 5, 9 s), four notes of a beat each.
  const melody = [60, 62, 64, 67];
  const starts = [2, 10, 18];
  const notes = starts.flatMap((b) => melody.map((k, i) => [b + i, 0.95, k] as [number, number, number]));
  const dir = fs.mkdtempSync(`${tmp}/sung-`);
  try {
    fs.writeFileSync(`${dir}/take.mid`, midiFile(53, notes));
    const args = [
      '-ni',
      '-g',
      '0.8',
      '-F',
      `${dir}/take.wav`,
      '-r',
      String(sampleRate),
      SOUNDFONT,
      `${dir}/take.mid`,
    ];
    if (child.spawnSync('fluidsynth', args, { encoding: 'utf8' }).status !== 0) return null;
    const decoded = await decodeWithFfmpeg(`${dir}/take.wav`, sampleRate);
    if (!decoded) return null;
    const src = decoded[0]!;
    const n = Math.max(src.length, 14 * sampleRate);
    const vocal = new Float32Array(n);
    let peak = 0;
    for (let i = 0; i < src.length; i++) peak = Math.max(peak, Math.abs(src[i]!));
    const phrases = starts.map((b) => ({ start: b / 2, end: b / 2 + 2.2 }));
    for (let i = 0; i < src.length; i++) {
      const t = i / sampleRate;
      const quiet = t >= phrases[1]!.start - 0.2 && t < phrases[2]!.start - 0.3;
      vocal[i] = (src[i]! / peak) * 0.5 * (quiet ? 10 ** (-8 / 20) : 1);
    }
    const hiss = noise(n, 11);
    for (let i = 0; i < n; i++) vocal[i]! += hiss[i]! * 10 ** (-50 / 20);
    return { vocal, sampleRate, phrases };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
