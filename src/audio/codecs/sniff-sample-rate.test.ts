import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sniffSampleRate } from './sniff-sample-rate';

/** Real files made by ffmpeg, so the header reading is checked against an independent writer. */
const made = (args: string[], ext: string): Uint8Array => {
  const path = join(mkdtempSync(join(tmpdir(), 'sniff-')), `x.${ext}`);
  execFileSync('/usr/bin/ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=f=440:d=0.5', ...args, path]);
  return new Uint8Array(readFileSync(path));
};

const wavHeader = (rate: number, extraChunk = false): Uint8Array => {
  const bytes: number[] = [];
  const str = (s: string) => bytes.push(...[...s].map((c) => c.charCodeAt(0)));
  const u32 = (n: number) => bytes.push(n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >>> 24) & 255);
  const u16 = (n: number) => bytes.push(n & 255, (n >> 8) & 255);
  str('RIFF');
  u32(0);
  str('WAVE');
  if (extraChunk) {
    str('LIST');
    u32(3);
    bytes.push(1, 2, 3, 0); // odd size is padded
  }
  str('fmt ');
  u32(16);
  u16(1);
  u16(2);
  u32(rate);
  u32(rate * 4);
  u16(4);
  u16(16);
  return Uint8Array.from(bytes);
};

describe('sniffSampleRate', () => {
  it('reads a WAV fmt chunk, also after other chunks', () => {
    expect(sniffSampleRate(wavHeader(44_100))).toBe(44_100);
    expect(sniffSampleRate(wavHeader(96_000, true))).toBe(96_000);
  });

  it('reads MPEG frame headers after an ID3 tag', () => {
    // ID3v2.4 tag of 4 bytes, then an MPEG-1 Layer III frame header at 48 kHz (index 1).
    const tag = [0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0];
    const frame = [0xff, 0xfb, 0x94, 0x64];
    expect(sniffSampleRate(Uint8Array.from([...tag, ...frame]))).toBe(48_000);
    expect(sniffSampleRate(Uint8Array.from([0xff, 0xfb, 0x90, 0x64]))).toBe(44_100);
  });

  it('reads Vorbis and Opus identification headers', () => {
    const page = (packet: number[]) => {
      const header = [...'OggS'].map((c) => c.charCodeAt(0));
      return Uint8Array.from([...header, ...new Array(22).fill(0), 1, packet.length, ...packet]);
    };
    const vorbis = [1, ...[...'vorbis'].map((c) => c.charCodeAt(0)), 0, 0, 0, 0, 2, 0x22, 0x56, 0, 0];
    expect(sniffSampleRate(page(vorbis))).toBe(22_050);
    expect(sniffSampleRate(page([...'OpusHead'].map((c) => c.charCodeAt(0))))).toBe(48_000);
  });

  it('reads the rate of WAV, MP3 (after an ID3 tag) and Ogg Vorbis files ffmpeg wrote', () => {
    expect(sniffSampleRate(made(['-ar', '48000'], 'wav'))).toBe(48_000);
    expect(sniffSampleRate(made(['-ar', '22050', '-c:a', 'libmp3lame'], 'mp3'))).toBe(22_050);
    expect(sniffSampleRate(made(['-ar', '44100', '-c:a', 'libvorbis'], 'ogg'))).toBe(44_100);
  });

  it('returns null for anything else', () => {
    expect(sniffSampleRate(new TextEncoder().encode('hello world, not audio'))).toBeNull();
  });
});
