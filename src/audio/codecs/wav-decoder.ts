/**
 * A RIFF/WAVE reader for tests and tools: PCM 8/16/24/32-bit integer and 32/64-bit float, plain or
 * WAVE_FORMAT_EXTENSIBLE. Browsers decode user files with decodeAudioData; this exists so encoders can be
 * checked sample by sample in Node.
 */
export interface DecodedWav {
  sampleRate: number;
  channelCount: number;
  bitsPerSample: number;
  /** 1 = integer PCM, 3 = IEEE float. */
  format: 1 | 3;
  frames: number;
  /** Samples scaled to -1..1 (integers divided by 2^(bits-1); see decodeWav's `chromium` for 16 bits). */
  channels: Float32Array[];
  /** 16-bit files only: the raw integers per channel, for bit-exact comparisons. */
  int16?: Int16Array[];
}

export class WavFormatError extends Error {
  override name = 'WavFormatError';
}

const readAscii = (bytes: Uint8Array, offset: number, n: number): string =>
  String.fromCharCode(...bytes.subarray(offset, offset + n));

/** Bytes 2..15 of KSDATAFORMAT_SUBTYPE_PCM / _IEEE_FLOAT ({0000000X-0000-0010-8000-00AA00389B71}). */
const KSDATAFORMAT_TAIL = [0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xaa, 0, 0x38, 0x9b, 0x71];
const isKsDataFormat = (tail: Uint8Array): boolean => KSDATAFORMAT_TAIL.every((b, i) => tail[i] === b);

/** Where a WAV file's samples are and how they are laid out, read from its chunks without decoding. */
export interface WavLayout {
  /** The format tag, or for WAVE_FORMAT_EXTENSIBLE the first two bytes of its sub-format GUID. */
  format: number;
  channelCount: number;
  sampleRate: number;
  bits: number;
  blockAlign: number;
  data: { offset: number; size: number };
  /** More than one fmt or data chunk: readers disagree on which counts (ours takes the last, FFmpeg the first). */
  repeatedChunks: boolean;
}

/** The layout of a RIFF/WAVE file; throws WavFormatError for anything that is not one with fmt and data. */
export const readWavLayout = (bytes: Uint8Array): WavLayout => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || readAscii(bytes, 0, 4) !== 'RIFF' || readAscii(bytes, 8, 4) !== 'WAVE') {
    throw new WavFormatError('Not a RIFF/WAVE file');
  }
  let fmt: Omit<WavLayout, 'data' | 'repeatedChunks'> | null = null;
  let repeatedChunks = false;
  let data: { offset: number; size: number } | null = null;
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const id = readAscii(bytes, offset, 4);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if ((id === 'fmt ' && fmt) || (id === 'data' && data)) repeatedChunks = true;
    if (id === 'fmt ') {
      let format = view.getUint16(body, true);
      // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the sub-format GUID, whose other
      // 14 bytes are the KSDATAFORMAT base; with any other GUID it stays 0xfffe, unknown (Chromium refuses
      // those files too).
      if (format === 0xfffe && size >= 40 && isKsDataFormat(bytes.subarray(body + 26, body + 40))) {
        format = view.getUint16(body + 24, true);
      }
      fmt = {
        format,
        channelCount: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        blockAlign: view.getUint16(body + 12, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      // Streams written before their length was known may claim more than the file holds.
      data = { offset: body, size: Math.min(size, bytes.length - body) };
    }
    offset = body + size + (size & 1);
  }
  if (!fmt || !data) throw new WavFormatError('Missing fmt or data chunk');
  return { ...fmt, data, repeatedChunks };
};

/**
 * `int16: false` skips the raw 16-bit copies (the page's decode has no use for them). `chromium: true` scales
 * 16-bit samples as Chromium's decodeAudioData does: negatives by 1/32768, positives by 1/32767 as a float
 * (32767 is 1.0), found by e2e/wav-decode-parity.spec.ts; its 24- and 32-bit results equal a plain 1/2^(bits-1) scale.
 */
export const decodeWav = (
  input: Uint8Array | ArrayBuffer,
  options: { int16?: boolean; chromium?: boolean } = {},
): DecodedWav => {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { format, channelCount, sampleRate, bits, blockAlign, data } = readWavLayout(bytes);
  if ((format !== 1 && format !== 3) || channelCount < 1 || blockAlign !== (channelCount * bits) / 8) {
    throw new WavFormatError(`Unsupported WAV format ${format}/${bits} bits`);
  }
  const frames = Math.floor(data.size / blockAlign);
  const channels = Array.from({ length: channelCount }, () => new Float32Array(frames));
  const int16 =
    bits === 16 && format === 1 && options.int16 !== false
      ? channels.map(() => new Int16Array(frames))
      : undefined;
  const width = bits / 8;
  // Chromium multiplies by the single-precision reciprocal (not a division): the product of two floats is
  // exact in a double, so the Float32Array's one rounding gives its result.
  const positive16 = options.chromium ? Math.fround(1 / 32767) : 1 / 32768;
  // One sample reader per file and one loop per channel: the page's WAV worker reads 10-minute files, where
  // a per-sample format switch cost a third of the time.
  const read: ((at: number) => number) | null =
    format === 3
      ? bits === 32
        ? (at) => view.getFloat32(at, true)
        : (at) => view.getFloat64(at, true)
      : bits === 8
        ? (at) => (view.getUint8(at) - 128) / 128
        : bits === 16
          ? (at) => {
              const i = view.getInt16(at, true);
              return i < 0 ? i / 32768 : i * positive16;
            }
          : bits === 24
            ? (at) =>
                ((view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getInt8(at + 2) << 16)) >> 0) /
                8388608
            : bits === 32
              ? (at) => view.getInt32(at, true) / 2147483648
              : null;
  if (!read && frames > 0) throw new WavFormatError(`Unsupported bit depth ${bits}`);
  for (let c = 0; c < channelCount && read; c++) {
    const out = channels[c]!;
    const raw = int16?.[c];
    let at = data.offset + c * width;
    for (let f = 0; f < frames; f++, at += blockAlign) {
      out[f] = read(at);
      if (raw) raw[f] = view.getInt16(at, true);
    }
  }
  return { sampleRate, channelCount, bitsPerSample: bits, format: format as 1 | 3, frames, channels, int16 };
};
