/**
 * AIFF and AIFF-C reader (Chromium's decodeAudioData refuses AIFF): integer PCM of 8 to 32 bits, big-endian
 * ('AIFF', AIFF-C 'NONE'/'twos') or little-endian (AIFF-C 'sowt'), and 32-bit float ('fl32'); the sample
 * rate is an 80-bit IEEE extended number. Samples are scaled to -1..1 by 2^(bits-1), as decoders do.
 */
export interface DecodedAiff {
  sampleRate: number;
  channelCount: number;
  bitsPerSample: number;
  frames: number;
  channels: Float32Array[];
}

export class AiffFormatError extends Error {
  override name = 'AiffFormatError';
}

const ascii = (b: Uint8Array, at: number, n: number): string =>
  String.fromCharCode(...b.subarray(at, at + n));

/** True when the bytes start like an AIFF or AIFF-C file. */
export const isAiff = (b: Uint8Array): boolean =>
  b.length >= 12 && ascii(b, 0, 4) === 'FORM' && ['AIFF', 'AIFC'].includes(ascii(b, 8, 4));

/** An 80-bit IEEE 754 extended float (sign, 15-bit exponent, 64-bit mantissa with explicit integer bit). */
export const readExtended = (view: DataView, at: number): number => {
  const sign = view.getUint8(at) & 0x80 ? -1 : 1;
  const exponent = view.getUint16(at) & 0x7fff;
  const mantissa = view.getUint32(at + 2) * 2 ** 32 + view.getUint32(at + 6);
  if (exponent === 0 && mantissa === 0) return 0;
  return sign * mantissa * 2 ** (exponent - 16_383 - 63);
};

interface Comm {
  channelCount: number;
  frames: number;
  bits: number;
  sampleRate: number;
  compression: string;
}

/** The COMM chunk and where the sound data starts, or throws. */
const readChunks = (b: Uint8Array, view: DataView): { comm: Comm; data: number } => {
  const aifc = ascii(b, 8, 4) === 'AIFC';
  let comm: Comm | null = null;
  let data = -1;
  for (let at = 12; at + 8 <= b.length; ) {
    const id = ascii(b, at, 4);
    const size = view.getUint32(at + 4);
    if (id === 'COMM') {
      if (size < 18 || at + 8 + 18 > b.length) throw new AiffFormatError('Truncated COMM chunk');
      comm = {
        channelCount: view.getInt16(at + 8),
        frames: view.getUint32(at + 10),
        bits: view.getInt16(at + 14),
        sampleRate: readExtended(view, at + 16),
        compression: aifc && size >= 22 ? ascii(b, at + 26, 4) : 'NONE',
      };
    } else if (id === 'SSND') {
      if (at + 16 > b.length) throw new AiffFormatError('Truncated SSND chunk');
      data = at + 16 + view.getUint32(at + 8);
    }
    at += 8 + size + (size & 1);
  }
  if (!comm) throw new AiffFormatError('No COMM chunk');
  if (data < 0) throw new AiffFormatError('No SSND chunk');
  return { comm, data };
};

export const decodeAiff = (input: Uint8Array | ArrayBuffer): DecodedAiff => {
  const b = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (!isAiff(b)) throw new AiffFormatError('Not an AIFF file');
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const { comm, data } = readChunks(b, view);
  const { channelCount, bits, sampleRate, compression } = comm;
  const float = compression === 'fl32' || compression === 'FL32';
  const little = compression === 'sowt';
  if (!float && !['NONE', 'twos', 'sowt'].includes(compression))
    throw new AiffFormatError(`Unsupported AIFF-C compression '${compression}'`);
  if (channelCount < 1 || channelCount > 32) throw new AiffFormatError('Bad channel count');
  if (float ? bits !== 32 : bits < 1 || bits > 32) throw new AiffFormatError('Bad sample size');
  if (!(sampleRate >= 1000 && sampleRate <= 768_000)) throw new AiffFormatError('Bad sample rate');
  const width = Math.ceil(bits / 8);
  // A file cut short keeps the whole frames it has.
  const frames = Math.min(comm.frames, Math.floor(Math.max(0, b.length - data) / (width * channelCount)));
  const channels = Array.from({ length: channelCount }, () => new Float32Array(frames));
  // Samples narrower than their bytes are left-justified, so scaling by the byte width is exact.
  const scale = 1 / 2 ** (width * 8 - 1);
  for (let i = 0, at = data; i < frames; i++) {
    for (let c = 0; c < channelCount; c++, at += width) {
      let v: number;
      if (float) v = view.getFloat32(at, false);
      else if (width === 1) v = view.getInt8(at) * scale;
      else if (width === 2) v = view.getInt16(at, little) * scale;
      else if (width === 3) {
        const [hi, mid, lo] = little ? [b[at + 2]!, b[at + 1]!, b[at]!] : [b[at]!, b[at + 1]!, b[at + 2]!];
        v = (((hi << 24) | (mid << 16) | (lo << 8)) >> 8) * scale;
      } else v = view.getInt32(at, little) * scale;
      channels[c]![i] = v;
    }
  }
  return { sampleRate: Math.round(sampleRate), channelCount, bitsPerSample: bits, frames, channels };
};
