/**
 * Reading MPEG-1 Layer III streams held as Blob parts (frames may straddle parts), without joining the
 * parts into one buffer: frame boundaries, and the side information that the parallel join needs
 * (main_data_begin, the main data's length in bits, the block types).
 */

const BITRATES = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0];
const RATES = [44_100, 48_000, 32_000, 0];

/** The bytes of several parts addressed as one stream. */
export class PartBytes {
  readonly parts: readonly Uint8Array[];
  readonly length: number;
  readonly #starts: number[];
  #last = 0;

  constructor(parts: readonly Uint8Array[]) {
    this.parts = parts;
    this.#starts = [];
    let at = 0;
    for (const p of parts) {
      this.#starts.push(at);
      at += p.length;
    }
    this.length = at;
  }

  /** Index of the part holding `offset` (sequential reads hit the cached part). */
  #part(offset: number): number {
    const starts = this.#starts;
    let k = this.#last;
    if (offset >= starts[k]! && offset < starts[k]! + this.parts[k]!.length) return k;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    k = lo;
    // Empty parts share a start with the next one.
    while (k < starts.length - 1 && offset >= starts[k]! + this.parts[k]!.length) k++;
    this.#last = k;
    return k;
  }

  at(offset: number): number {
    if (offset < 0 || offset >= this.length) throw new RangeError(`Byte ${offset} outside the stream`);
    const k = this.#part(offset);
    return this.parts[k]![offset - this.#starts[k]!]!;
  }

  /** A copy of [start, end) (for small ranges: headers, side info, a seam's few frames). */
  copy(start: number, end: number): Uint8Array<ArrayBuffer> {
    const out = new Uint8Array(end - start);
    let at = start;
    while (at < end) {
      const k = this.#part(at);
      const local = at - this.#starts[k]!;
      const n = Math.min(end - at, this.parts[k]!.length - local);
      out.set(this.parts[k]!.subarray(local, local + n), at - start);
      at += n;
    }
    return out;
  }

  /** Views (no copies) of [start, end), one per part touched. */
  views(start: number, end: number): Uint8Array[] {
    const out: Uint8Array[] = [];
    let at = start;
    while (at < end) {
      const k = this.#part(at);
      const local = at - this.#starts[k]!;
      const n = Math.min(end - at, this.parts[k]!.length - local);
      out.push(this.parts[k]!.subarray(local, local + n));
      at += n;
    }
    return out;
  }
}

export interface Mp3FrameHeader {
  bitrate: number;
  sampleRate: number;
  channels: 1 | 2;
  /** Bytes of the whole frame, header included. */
  size: number;
  /** Bytes before the main data slots: header, CRC when present, side information. */
  sideEnd: number;
}

/** Parses a 4-byte MPEG-1 Layer III frame header; throws on anything else. */
export const parseMp3Header = (b0: number, b1: number, b2: number, b3: number): Mp3FrameHeader => {
  if (b0 !== 0xff || (b1 & 0xfe) !== 0xfa) throw new Error('Not an MPEG-1 Layer III frame header');
  const bitrate = BITRATES[b2 >>> 4]!;
  const sampleRate = RATES[(b2 >>> 2) & 3]!;
  if (!bitrate || !sampleRate) throw new Error('Bad MPEG frame header');
  const channels = b3 >>> 6 === 3 ? 1 : 2;
  const crc = b1 & 1 ? 0 : 2;
  return {
    bitrate,
    sampleRate,
    channels,
    size: Math.floor((144_000 * bitrate) / sampleRate) + ((b2 >>> 1) & 1),
    sideEnd: 4 + crc + (channels === 1 ? 17 : 32),
  };
};

/** Byte offsets of every frame, and the stream's length as a last entry. */
export const mp3FrameOffsets = (bytes: PartBytes): Float64Array => {
  const offsets: number[] = [];
  let at = 0;
  while (at + 4 <= bytes.length) {
    const h = parseMp3Header(bytes.at(at), bytes.at(at + 1), bytes.at(at + 2), bytes.at(at + 3));
    offsets.push(at);
    at += h.size;
  }
  if (at !== bytes.length) throw new Error('MP3 stream does not end on a frame boundary');
  offsets.push(at);
  return Float64Array.from(offsets);
};

export interface Mp3SideInfo {
  header: Mp3FrameHeader;
  /** Bytes before this frame's first slot byte where its main data starts (9 bits in MPEG-1). */
  mainDataBegin: number;
  /** Length of the main data (scale factors and Huffman data of both granules, all channels). */
  mainDataBits: number;
  /** Block type per granule and channel (granule-major): 0 long, 1 start, 2 short, 3 stop. */
  blockTypes: number[];
}

/** The side information of the frame at `offset`. */
export const mp3SideInfo = (bytes: PartBytes, offset: number): Mp3SideInfo => {
  const head = bytes.copy(offset, Math.min(bytes.length, offset + 38));
  const header = parseMp3Header(head[0]!, head[1]!, head[2]!, head[3]!);
  let bit = (header.sideEnd - (header.channels === 1 ? 17 : 32)) * 8;
  const read = (n: number): number => {
    let v = 0;
    for (let i = 0; i < n; i++, bit++) v = (v << 1) | ((head[bit >>> 3]! >>> (7 - (bit & 7))) & 1);
    return v;
  };
  const nch = header.channels;
  const mainDataBegin = read(9);
  read(nch === 1 ? 5 : 3); // private bits
  read(4 * nch); // scfsi
  let mainDataBits = 0;
  const blockTypes: number[] = [];
  for (let gr = 0; gr < 2; gr++) {
    for (let ch = 0; ch < nch; ch++) {
      mainDataBits += read(12); // part2_3_length
      read(9 + 8 + 4); // big_values, global_gain, scalefac_compress
      if (read(1)) {
        blockTypes.push(read(2));
        read(1 + 10 + 9); // mixed_block_flag, table_select x2, subblock_gain x3
      } else {
        blockTypes.push(0);
        read(15 + 4 + 3); // table_select x3, region0_count, region1_count
      }
      read(3); // preflag, scalefac_scale, count1table_select
    }
  }
  return { header, mainDataBegin, mainDataBits, blockTypes };
};
