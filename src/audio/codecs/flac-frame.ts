/**
 * One FLAC frame (RFC 9639): the header, one subframe per channel (constant, verbatim, or a fixed
 * polynomial predictor of order 0-4 with partitioned Rice residuals), the stereo decorrelation that costs
 * least (left/right, left/side, right/side or mid/side), and the CRCs. No LPC: fixed predictors give most of
 * the gain on mastered music at a fraction of the code and time (decision 120).
 */
import type { BitWriter } from './bit-writer';

const MAX_PARTITION_ORDER = 8;
/** Samples per frame (block size code 12): libFLAC's default at 44.1/48 kHz. */
export const FLAC_BLOCK_SIZE = 4096;

const crc8Table = Uint8Array.from({ length: 256 }, (_, i) => {
  let c = i;
  for (let k = 0; k < 8; k++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
  return c;
});
const crc16Table = Uint16Array.from({ length: 256 }, (_, i) => {
  let c = i << 8;
  for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x8005) & 0xffff : (c << 1) & 0xffff;
  return c;
});
const crc8 = (bytes: Uint8Array): number => {
  let c = 0;
  for (const b of bytes) c = crc8Table[c ^ b]!;
  return c;
};
const crc16 = (bytes: Uint8Array): number => {
  let c = 0;
  for (const b of bytes) c = ((c << 8) & 0xffff) ^ crc16Table[(c >>> 8) ^ b]!;
  return c;
};

/** Residual of the fixed predictor of `order` for samples[order..n) into out[0..n-order). */
const fixedResidual = (x: Int32Array, n: number, order: number, out: Int32Array): void => {
  // One loop per order: no branch per sample.
  if (order === 0) for (let i = 0; i < n; i++) out[i] = x[i]!;
  else if (order === 1) for (let i = 1; i < n; i++) out[i - 1] = x[i]! - x[i - 1]!;
  else if (order === 2) for (let i = 2; i < n; i++) out[i - 2] = x[i]! - 2 * x[i - 1]! + x[i - 2]!;
  else if (order === 3)
    for (let i = 3; i < n; i++) out[i - 3] = x[i]! - 3 * x[i - 1]! + 3 * x[i - 2]! - x[i - 3]!;
  else
    for (let i = 4; i < n; i++)
      out[i - 4] = x[i]! - 4 * x[i - 1]! + 6 * x[i - 2]! - 4 * x[i - 3]! + x[i - 4]!;
};

/** Sums of |residual| for each fixed order at once: the cheap way to pick the order (as libFLAC does). */
const bestFixedOrder = (x: Int32Array, n: number): number => {
  if (n <= 4) return 0;
  const sums = [0, 0, 0, 0, 0];
  for (let i = 4; i < n; i++) {
    const e0 = x[i]!;
    const e1 = e0 - x[i - 1]!;
    const e2 = e1 - (x[i - 1]! - x[i - 2]!);
    const e3 = e2 - (x[i - 1]! - 2 * x[i - 2]! + x[i - 3]!);
    const e4 = e3 - (x[i - 1]! - 3 * x[i - 2]! + 3 * x[i - 3]! - x[i - 4]!);
    sums[0] += Math.abs(e0);
    sums[1] += Math.abs(e1);
    sums[2] += Math.abs(e2);
    sums[3] += Math.abs(e3);
    sums[4] += Math.abs(e4);
  }
  let best = 0;
  for (let o = 1; o < 5; o++) if (sums[o]! < sums[best]!) best = o;
  return best;
};

interface RicePlan {
  order: number;
  params: number[];
  bits: number;
}

/** Zig-zag: signed residual to the unsigned value Rice codes. */
const fold = (r: number): number => (r >= 0 ? 2 * r : -2 * r - 1);

/** Estimated bits of a partition of `n` folded values summing to `sum` with parameter k. */
const riceBits = (n: number, sum: number, k: number): number => n * (k + 1) + Math.floor(sum / 2 ** k);

/** The partition order and per-partition Rice parameters with the fewest (estimated) bits. */
const planRice = (residual: Int32Array, blockSize: number, predOrder: number): RicePlan => {
  let maxOrder = 0;
  while (
    maxOrder < MAX_PARTITION_ORDER &&
    blockSize % (2 << maxOrder) === 0 &&
    blockSize >> (maxOrder + 1) > predOrder
  )
    maxOrder++;
  // Sums of folded residuals over the finest partitions, merged pairwise for coarser orders.
  const parts = 1 << maxOrder;
  const size = blockSize >> maxOrder;
  let sums = new Float64Array(parts);
  for (let p = 0, at = 0; p < parts; p++) {
    const end = (p + 1) * size - predOrder;
    let s = 0;
    for (; at < end; at++) s += fold(residual[at]!);
    sums[p] = s;
  }
  let best: RicePlan | null = null;
  for (let order = maxOrder; order >= 0; order--) {
    const n0 = (blockSize >> order) - predOrder;
    const params: number[] = [];
    let bits = 0;
    for (let p = 0; p < sums.length; p++) {
      const n = p === 0 ? n0 : blockSize >> order;
      const mean = sums[p]! / Math.max(1, n);
      let k = mean < 1 ? 0 : Math.min(30, Math.floor(Math.log2(mean)));
      if (k > 0 && riceBits(n, sums[p]!, k - 1) < riceBits(n, sums[p]!, k)) k--;
      params.push(k);
      bits += 5 + riceBits(n, sums[p]!, k);
    }
    if (!best || bits < best.bits) best = { order, params, bits };
    if (order > 0) {
      const merged = new Float64Array(sums.length / 2);
      for (let p = 0; p < merged.length; p++) merged[p] = sums[2 * p]! + sums[2 * p + 1]!;
      sums = merged;
    }
  }
  return best!;
};

/** Writes one subframe of `n` samples of `bits` bits, choosing constant, fixed or verbatim. */
const writeSubframe = (out: BitWriter, x: Int32Array, n: number, bits: number, scratch: Int32Array) => {
  let constant = true;
  for (let i = 1; i < n && constant; i++) constant = x[i] === x[0];
  if (constant) {
    out.write(0, 8); // pad bit, type 000000, no wasted bits
    out.write(x[0]!, bits);
    return;
  }
  const order = Math.min(bestFixedOrder(x, n), n - 1);
  fixedResidual(x, n, order, scratch);
  const plan = planRice(scratch, n, order);
  if (plan.bits + order * bits + 12 >= n * bits) {
    out.write(0b00000010, 8); // verbatim
    for (let i = 0; i < n; i++) out.write(x[i]!, bits);
    return;
  }
  out.write(0b00010000 | (order << 1), 8); // fixed, order, no wasted bits
  for (let i = 0; i < order; i++) out.write(x[i]!, bits);
  const wide = plan.params.some((k) => k > 14);
  out.write(wide ? 1 : 0, 2);
  out.write(plan.order, 4);
  const size = n >> plan.order;
  for (let p = 0, at = 0; p < plan.params.length; p++) {
    const k = plan.params[p]!;
    out.write(k, wide ? 5 : 4);
    const end = (p + 1) * size - order;
    const mask = (1 << k) - 1;
    for (; at < end; at++) {
      const u = fold(scratch[at]!);
      const q = Math.floor(u / 2 ** k);
      // Unary quotient, stop bit and the k low bits in one write when they fit (the common case).
      if (q + 1 + k <= 24) out.write((1 << k) | (u & mask), q + 1 + k);
      else {
        out.unary(q);
        out.write(u - q * 2 ** k, k);
      }
    }
  }
};

/** Sum of |fixed residual| at its best order: the cost estimate of one decorrelation candidate. */
const cost = (x: Int32Array, n: number, scratch: Int32Array): number => {
  const order = bestFixedOrder(x, n);
  fixedResidual(x, n, order, scratch);
  let s = 0;
  for (let i = 0; i < n - order; i++) s += Math.abs(scratch[i]!);
  return s;
};

const codedNumber = (out: BitWriter, v: number): void => {
  if (v < 0x80) {
    out.write(v, 8);
    return;
  }
  const extra = v < 0x800 ? 1 : v < 0x10000 ? 2 : v < 0x200000 ? 3 : v < 0x4000000 ? 4 : 5;
  const lead = (0xff00 >> (extra + 1)) & 0xff;
  out.write(lead | Math.floor(v / 2 ** (6 * extra)), 8);
  for (let i = extra - 1; i >= 0; i--) out.write(0x80 | (Math.floor(v / 2 ** (6 * i)) & 0x3f), 8);
};

const RATE_CODES = new Map([
  [88_200, 1],
  [176_400, 2],
  [192_000, 3],
  [8_000, 4],
  [16_000, 5],
  [22_050, 6],
  [24_000, 7],
  [32_000, 8],
  [44_100, 9],
  [48_000, 10],
  [96_000, 11],
]);

/**
 * The frame header's sample rate: a code for the common rates, else stored after the header. Code 0
 * ("see STREAMINFO") is legal, but some readers (ffprobe) then report a rate of 0.
 */
const rateCode = (rate: number): { code: number; value: number; bits: number } => {
  const code = RATE_CODES.get(rate);
  if (code) return { code, value: 0, bits: 0 };
  if (rate % 1000 === 0 && rate / 1000 < 256) return { code: 12, value: rate / 1000, bits: 8 };
  if (rate < 65_536) return { code: 13, value: rate, bits: 16 };
  if (rate % 10 === 0 && rate / 10 < 65_536) return { code: 14, value: rate / 10, bits: 16 };
  return { code: 0, value: 0, bits: 0 };
};

export interface FlacFrameScratch {
  side: Int32Array;
  mid: Int32Array;
  residual: Int32Array;
}

export const frameScratch = (blockSize: number): FlacFrameScratch => ({
  side: new Int32Array(blockSize),
  mid: new Int32Array(blockSize),
  residual: new Int32Array(blockSize),
});

/**
 * Appends frame `index` of the channels' first `n` samples (integers of `bits` bits) to `out`, which must be
 * byte-aligned. Every frame but the last holds FLAC_BLOCK_SIZE samples.
 */
export const writeFrame = (
  out: BitWriter,
  channels: Int32Array[],
  n: number,
  bits: 16 | 24,
  sampleRate: number,
  index: number,
  scratch: FlacFrameScratch,
): void => {
  const start = out.length;
  let assignment = channels.length - 1;
  let signals = channels;
  let depths: number[] = channels.map(() => bits);
  if (channels.length === 2) {
    const [l, r] = channels as [Int32Array, Int32Array];
    const { side, mid } = scratch;
    for (let i = 0; i < n; i++) {
      side[i] = l[i]! - r[i]!;
      mid[i] = (l[i]! + r[i]!) >> 1;
    }
    const cl = cost(l, n, scratch.residual);
    const cr = cost(r, n, scratch.residual);
    const cs = cost(side, n, scratch.residual);
    const cm = cost(mid, n, scratch.residual);
    const options = [cl + cr, cl + cs, cr + cs, cm + cs];
    const pick = options.indexOf(Math.min(...options));
    if (pick === 1) [assignment, signals, depths] = [8, [l, side], [bits, bits + 1]];
    else if (pick === 2) [assignment, signals, depths] = [9, [side, r], [bits + 1, bits]];
    else if (pick === 3) [assignment, signals, depths] = [10, [mid, side], [bits, bits + 1]];
  }
  out.write(0xfff8, 16); // sync, reserved 0, fixed block size
  const sizeCode = n === FLAC_BLOCK_SIZE ? 12 : 7;
  out.write(sizeCode, 4);
  const rate = rateCode(sampleRate);
  out.write(rate.code, 4);
  out.write(assignment, 4);
  out.write(bits === 16 ? 4 : 6, 3);
  out.write(0, 1);
  codedNumber(out, index);
  if (sizeCode === 7) out.write(n - 1, 16);
  if (rate.bits > 0) out.write(rate.value, rate.bits);
  out.write(crc8(out.view(start)), 8);
  for (let c = 0; c < signals.length; c++) writeSubframe(out, signals[c]!, n, depths[c]!, scratch.residual);
  out.align();
  out.write(crc16(out.view(start)), 16);
};
