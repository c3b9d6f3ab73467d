/**
 * Incremental MD5 (RFC 1321), for the FLAC STREAMINFO signature of the unencoded audio: decoders (flac -t,
 * ffmpeg) check it, so a file whose samples went wrong anywhere is caught. Not for security.
 */
const S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const K = Int32Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) | 0);

export class Md5 {
  #h = Int32Array.of(0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476);
  #block = new Uint8Array(64);
  #words = new Int32Array(16);
  #filled = 0;
  #length = 0;

  update(bytes: Uint8Array): this {
    this.#length += bytes.length;
    let at = 0;
    if (this.#filled > 0) {
      const take = Math.min(64 - this.#filled, bytes.length);
      this.#block.set(bytes.subarray(0, take), this.#filled);
      this.#filled += take;
      at = take;
      if (this.#filled < 64) return this;
      this.#compress(this.#block, 0);
      this.#filled = 0;
    }
    for (; at + 64 <= bytes.length; at += 64) this.#compress(bytes, at);
    this.#block.set(bytes.subarray(at), 0);
    this.#filled = bytes.length - at;
    return this;
  }

  digest(): Uint8Array {
    const bits = this.#length * 8;
    const pad = new Uint8Array((this.#filled < 56 ? 56 : 120) - this.#filled + 8);
    pad[0] = 0x80;
    const view = new DataView(pad.buffer);
    view.setUint32(pad.length - 8, bits >>> 0, true);
    view.setUint32(pad.length - 4, Math.floor(bits / 2 ** 32), true);
    this.update(pad);
    const out = new Uint8Array(16);
    const outView = new DataView(out.buffer);
    for (let i = 0; i < 4; i++) outView.setInt32(i * 4, this.#h[i]!, true);
    return out;
  }

  #compress(bytes: Uint8Array, at: number): void {
    const w = this.#words;
    for (let i = 0; i < 16; i++) {
      const j = at + i * 4;
      w[i] = bytes[j]! | (bytes[j + 1]! << 8) | (bytes[j + 2]! << 16) | (bytes[j + 3]! << 24);
    }
    const h = this.#h;
    let a = h[0]!;
    let b = h[1]!;
    let c = h[2]!;
    let d = h[3]!;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) & 15;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) & 15;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) & 15;
      }
      const s = S[(i >> 4) * 4 + (i & 3)]!;
      const x = (a + f + K[i]! + w[g]!) | 0;
      a = d;
      d = c;
      c = b;
      b = (b + ((x << s) | (x >>> (32 - s)))) | 0;
    }
    h[0] = (h[0]! + a) | 0;
    h[1] = (h[1]! + b) | 0;
    h[2] = (h[2]! + c) | 0;
    h[3] = (h[3]! + d) | 0;
  }
}
