/**
 * A big-endian bit writer (FLAC's bit order) into a growing byte buffer. At most 7 bits are pending
 * between calls, so writes of up to 24 bits stay in 31-bit integer arithmetic; wider values are split.
 */
export class BitWriter {
  bytes: Uint8Array;
  length = 0;
  #acc = 0;
  #bits = 0;

  constructor(capacity = 1 << 16) {
    this.bytes = new Uint8Array(capacity);
  }

  /** The low `n` bits of `value` (n ≤ 32; negative values are written in two's complement). */
  write(value: number, n: number): void {
    if (n > 24) {
      this.write(Math.floor(value / 65_536) & 0xffff, n - 16);
      this.write(value & 0xffff, 16);
      return;
    }
    if (n === 0) return;
    this.#acc = (this.#acc << n) | (value & ((1 << n) - 1));
    this.#bits += n;
    if (this.length + 4 > this.bytes.length) this.#grow();
    while (this.#bits >= 8) {
      this.#bits -= 8;
      this.bytes[this.length++] = this.#acc >>> this.#bits;
    }
    this.#acc &= (1 << this.#bits) - 1;
  }

  /** `q` zero bits and a one: the unary part of a Rice code. */
  unary(q: number): void {
    while (q >= 24) {
      this.write(0, 24);
      q -= 24;
    }
    this.write(1, q + 1);
  }

  /** Pads with zero bits to the next byte boundary. */
  align(): void {
    if (this.#bits > 0) this.write(0, 8 - this.#bits);
  }

  /** Bytes written so far (call align() first for a whole frame). */
  view(from = 0): Uint8Array {
    return this.bytes.subarray(from, this.length);
  }

  reset(): void {
    this.length = 0;
    this.#acc = 0;
    this.#bits = 0;
  }

  #grow(): void {
    const next = new Uint8Array(this.bytes.length * 2);
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }
}
