/// <reference types="node" />
/**
 * Issue 31 item 4: tags read back by ffprobe from our WAV, FLAC and MP3, and gapless MP3: a record cut in
 * two at a sample that is no MP3 frame boundary, each half encoded on its own, decodes (ffmpeg) to exactly
 * the source's samples and joins without a gap or a click.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { concatBytes } from '../codecs/codec-tools.test-helper';
import { encodeFlac } from '../codecs/flac-encoder';
import { encodeMp3 } from '../codecs/mp3-encoder';
import { encodeWav } from '../codecs/wav-encoder';
import { decodeTake } from '../dsp/genre-takes.test-helper';
import type { AlbumTags } from './album-api';
import { tagFlac, tagMp3, tagWav } from './album-tags';

const require = createRequire(import.meta.url);
const wasm = readFileSync(require.resolve('wasm-media-encoders/wasm/mp3'));
const dir = mkdtempSync(join(tmpdir(), 'album-tags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const RATE = 44100;

const write = (name: string, parts: readonly Uint8Array[]) => {
  const file = join(dir, name);
  writeFileSync(file, concatBytes(parts));
  return file;
};

/** ffprobe's tags of the file (container and stream), keys lower-cased. */
const probeTags = (file: string): Record<string, string> => {
  const json = JSON.parse(
    execFileSync(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'format_tags:stream_tags', '-of', 'json', file],
      {
        encoding: 'utf8',
      },
    ),
  );
  const all = { ...(json.streams?.[0]?.tags ?? {}), ...(json.format?.tags ?? {}) };
  return Object.fromEntries(Object.entries(all).map(([k, v]) => [k.toLowerCase(), String(v)]));
};

/** ffmpeg's decode to float, per channel. */
const decode = (file: string): Float32Array[] => {
  const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'f32le', '-ac', '2', '-'], {
    maxBuffer: 1 << 28,
  });
  const all = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
  const frames = all.length / 2;
  return [0, 1].map((c) => Float32Array.from({ length: frames }, (_, i) => all[2 * i + c]!));
};

const TAGS: AlbumTags = {
  title: 'Café Night',
  artist: 'The Örchestra',
  album: 'First Record',
  trackNumber: 3,
  trackTotal: 11,
  isrc: 'GB-XYZ-26-00042',
  date: '2026',
  genre: 'Jazz',
};

const expectTags = (tags: Record<string, string>) => {
  expect(tags.title).toBe('Café Night');
  expect(tags.artist).toBe('The Örchestra');
  expect(tags.album).toBe('First Record');
  expect(tags.track).toMatch(/^3(\/11)?$/);
  expect(tags.tsrc ?? tags.isrc).toBe('GBXYZ2600042');
};

const sine = (frames: number) =>
  [0, 1].map(() =>
    Float32Array.from({ length: frames }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 441 * i) / RATE)),
  );

describe('delivery tags read back by ffprobe (issue 31)', () => {
  const channels = sine(RATE);

  it('WAV: LIST/INFO and an id3 chunk; the audio unchanged', () => {
    const plain = encodeWav(channels, RATE, { dither: false });
    const file = write('t.wav', tagWav(plain, TAGS));
    expectTags(probeTags(file));
    // The samples decode as from the untagged file.
    expect(decode(file)[0]).toEqual(decode(write('plain.wav', plain))[0]);
    const bytes = readFileSync(file);
    expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
    expect(bytes.includes(Buffer.from('LIST'))).toBe(true);
    expect(bytes.includes(Buffer.from('id3 '))).toBe(true);
  });

  it('FLAC: Vorbis comments, and `flac -t` still verifies the stream', () => {
    const file = write('t.flac', tagFlac(encodeFlac(channels, RATE, { dither: false }), TAGS));
    const tags = probeTags(file);
    expectTags(tags);
    expect(tags.tracktotal ?? tags.totaltracks).toBe('11');
    execFileSync('flac', ['-t', '-s', file]);
  });

  it('MP3: ID3v2.3 in front of the LAME Info frame; still decodes to exactly the input length', async () => {
    const file = write('t.mp3', tagMp3(await encodeMp3(channels, RATE, { wasm }), TAGS));
    expectTags(probeTags(file));
    expect(decode(file)[0]!.length).toBe(RATE);
  });
});

describe('gapless MP3 pair (issue 31)', { timeout: 120_000 }, () => {
  it('two halves of real music decode to exactly the source samples and join without a gap or click', async () => {
    const source =
      (await decodeTake('/usr/share/games/asc/music/machine_wars.mp3', RATE, '', 30, 12)) ?? sine(12 * RATE);
    const frames = source[0]!.length;
    // A cut that is no multiple of 1152 (an MP3 frame) nor of 576 (LAME's delay).
    const cut = 5 * RATE + 777;
    const halves = [source.map((c) => c.slice(0, cut)), source.map((c) => c.slice(cut))];
    const decoded: Float32Array[][] = [];
    for (const [i, half] of halves.entries()) {
      const parts = tagMp3(await encodeMp3(half, RATE, { wasm, headroomDb: 0 }), {
        ...TAGS,
        trackNumber: i + 1,
      });
      decoded.push(decode(write(`half${i}.mp3`, parts)));
    }
    expect(decoded[0]![0]!.length).toBe(cut);
    expect(decoded[1]![0]!.length).toBe(frames - cut);
    const joined = [0, 1].map((c) => {
      const out = new Float32Array(frames);
      out.set(decoded[0]![c]!, 0);
      out.set(decoded[1]![c]!, cut);
      return out;
    });
    expect(joined[0]!.length).toBe(frames);
    // The coder's error around the join is no larger than its error elsewhere: no gap, no click.
    const errorDb = (from: number, to: number) => {
      let e = 0;
      let s = 0;
      for (let c = 0; c < 2; c++)
        for (let i = from; i < to; i++) {
          e += (joined[c]![i]! - source[c]![i]!) ** 2;
          s += source[c]![i]! ** 2;
        }
      return 10 * Math.log10(e / s);
    };
    const atJoin = errorDb(cut - 1152, cut + 1152);
    const typical = errorDb(RATE, 4 * RATE);
    // The reference: the LAME CLI encoding the same two halves on its own (with its Info tag), joined alike.
    const lameJoin = (() => {
      const files = halves.map((half, i) => {
        const wav = write(`lame${i}.wav`, encodeWav(half, RATE, { dither: false }));
        execFileSync('lame', ['--quiet', '-b', '320', '--cbr', wav, `${wav}.mp3`]);
        return decode(`${wav}.mp3`);
      });
      let e = 0;
      let s = 0;
      for (let c = 0; c < 2; c++)
        for (let i = cut - 1152; i < cut + 1152; i++) {
          const v = i < cut ? files[0]![c]![i]! : files[1]![c]![i - cut]!;
          e += (v - source[c]![i]!) ** 2;
          s += source[c]![i]! ** 2;
        }
      return 10 * Math.log10(e / s);
    })();
    // The largest step between neighbouring samples at the join against the source's largest step there.
    const step = (x: Float32Array, from: number, to: number) => {
      let m = 0;
      for (let i = from + 1; i < to; i++) m = Math.max(m, Math.abs(x[i]! - x[i - 1]!));
      return m;
    };
    const stepJoined = step(joined[0]!, cut - 64, cut + 64);
    const stepSource = step(source[0]!, cut - 64, cut + 64);
    console.log(
      `gapless pair: ${cut} + ${frames - cut} = ${frames} samples decoded; error at the join ` +
        `${atJoin.toFixed(1)} dB (LAME CLI ${lameJoin.toFixed(1)} dB), ${typical.toFixed(1)} dB elsewhere; ` +
        `largest step ${stepJoined.toFixed(3)} (source ${stepSource.toFixed(3)})`,
    );
    // Coding each file alone leaves a small edge error at the join (the coder sees silence past the end):
    // no larger than the reference encoder's own, and 35 dB under the music.
    expect(atJoin).toBeLessThanOrEqual(lameJoin + 1);
    expect(atJoin).toBeLessThanOrEqual(-35);
    expect(stepJoined).toBeLessThanOrEqual(stepSource * 1.5 + 0.01);
  });
});
