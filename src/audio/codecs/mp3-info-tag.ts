/**
 * The Xing "Info" frame with LAME's extension that leads a CBR MP3 made by the LAME CLI. The WebAssembly
 * build writes none, and without it every decoder plays LAME's 576-sample encoder delay and the final frame's
 * padding as silence (1.5 to 2.5 frames too long). The tag's delay/padding fields let ffmpeg, Chromium and
 * players trim them, so the file decodes to exactly the samples that went in (gapless).
 */

import { mp3FrameOffsets, PartBytes } from './mp3-frames';

/** LAME's encoder delay in samples (decoders add their own 529 and subtract both using this tag). */
export const LAME_ENCODER_DELAY = 576;
const SAMPLES_PER_FRAME = 1152;
const BITRATES = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0];
const RATES = [44_100, 48_000, 32_000, 0];

/**
 * CRC-16/ARC (polynomial 0x8005, reflected), as the LAME tag uses. Four bytes per step ("slicing by 4"):
 * T[k][x] is byte x followed by k zero bytes; the 16-bit register folds into the first two bytes.
 */
const CRC_TABLES = (() => {
  const t = Array.from({ length: 4 }, () => new Uint16Array(256));
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
    t[0]![n] = c;
  }
  for (let k = 1; k < 4; k++) {
    for (let n = 0; n < 256; n++) {
      const prev = t[k - 1]![n]!;
      t[k]![n] = (prev >>> 8) ^ t[0]![prev & 0xff]!;
    }
  }
  return t;
})();

export const crc16 = (bytes: Uint8Array, crc = 0): number => {
  const [t0, t1, t2, t3] = CRC_TABLES as [Uint16Array, Uint16Array, Uint16Array, Uint16Array];
  let c = crc & 0xffff;
  let i = 0;
  for (const end = bytes.length - 3; i < end; i += 4) {
    c =
      t3[(bytes[i]! ^ c) & 0xff]! ^
      t2[(bytes[i + 1]! ^ (c >>> 8)) & 0xff]! ^
      t1[bytes[i + 2]!]! ^
      t0[bytes[i + 3]!]!;
  }
  for (; i < bytes.length; i++) c = (c >>> 8) ^ t0[(c ^ bytes[i]!) & 0xff]!;
  return c;
};

interface FrameScan {
  frames: number;
  bytes: number;
  firstHeader: Uint8Array;
  musicCrc: number;
}

/** Counts the MPEG-1 Layer III frames in Blob parts (frames may straddle parts) and checksums them. */
const scanFrames = (parts: readonly Uint8Array[]): FrameScan => {
  const bytes = new PartBytes(parts);
  const offsets = mp3FrameOffsets(bytes);
  if (offsets.length < 2) throw new Error('MP3 stream has no frames');
  let musicCrc = 0;
  for (const p of parts) musicCrc = crc16(p, musicCrc);
  return { frames: offsets.length - 1, bytes: bytes.length, firstHeader: bytes.copy(0, 4), musicCrc };
};

/**
 * The Info frame to put before `parts` (LAME's CBR output for `inputFrames` samples per channel).
 */
export const lameInfoFrame = (
  parts: readonly Uint8Array[],
  inputFrames: number,
  bitrateKbps: number,
): Uint8Array => {
  const scan = scanFrames(parts);
  const h = scan.firstHeader;
  const bitrate = BITRATES[h[2]! >>> 4]!;
  const rate = RATES[(h[2]! >>> 2) & 3]!;
  const size = Math.floor((144_000 * bitrate) / rate);
  const frame = new Uint8Array(size);
  const view = new DataView(frame.buffer);
  // Same header as the audio (version, layer, rate, bitrate, channel mode), no CRC, no padding slot.
  frame.set([h[0]!, h[1]! | 1, h[2]! & ~0x02, h[3]!]);
  const mono = h[3]! >>> 6 === 3;
  const tag = 4 + (mono ? 17 : 32);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) frame[offset + i] = text.charCodeAt(i);
  };
  const fileBytes = size + scan.bytes;
  ascii(tag, 'Info');
  view.setUint32(tag + 4, 0x0f, false); // frames, bytes, TOC and quality present
  view.setUint32(tag + 8, scan.frames, false);
  view.setUint32(tag + 12, fileBytes, false);
  for (let i = 0; i < 100; i++) frame[tag + 16 + i] = Math.floor((i * 256) / 100);
  view.setUint32(tag + 116, 0, false);
  const lame = tag + 120;
  ascii(lame, 'LAME3.100');
  frame[lame + 9] = 0x01; // tag revision 0, CBR
  frame[lame + 10] = 200; // lowpass / 100 Hz (LAME's 320 kbps default is 20 kHz)
  frame[lame + 20] = Math.min(bitrateKbps, 255);
  const padding = Math.min(
    Math.max(scan.frames * SAMPLES_PER_FRAME - inputFrames - LAME_ENCODER_DELAY, 0),
    4095,
  );
  frame[lame + 21] = LAME_ENCODER_DELAY >>> 4;
  frame[lame + 22] = ((LAME_ENCODER_DELAY & 0x0f) << 4) | (padding >>> 8);
  frame[lame + 23] = padding & 0xff;
  view.setUint32(lame + 28, fileBytes, false);
  view.setUint16(lame + 32, scan.musicCrc, false);
  view.setUint16(lame + 34, crc16(frame.subarray(0, lame + 34)), false);
  return frame;
};
