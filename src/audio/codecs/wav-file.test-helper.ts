/** WAV files of every layout the page's WAV decode worker takes or refuses, for its tests and the parity e2e. */
/** A WAV file of `frames` frames of pseudo-random sample bytes; `extensible` writes the 40-byte fmt. */
export const wavFile = (o: {
  format: number;
  bits: number;
  channels: number;
  frames: number;
  rate?: number;
  extensible?: boolean;
}): ArrayBuffer => {
  const blockAlign = (o.channels * o.bits) / 8;
  const dataSize = o.frames * blockAlign;
  const fmtSize = o.extensible ? 40 : 16;
  const bytes = new Uint8Array(12 + 8 + fmtSize + 8 + dataSize);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) view.setUint8(at + i, s.charCodeAt(i));
  };
  ascii(0, 'RIFF');
  view.setUint32(4, bytes.length - 8, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, fmtSize, true);
  view.setUint16(20, o.extensible ? 0xfffe : o.format, true);
  view.setUint16(22, o.channels, true);
  view.setUint32(24, o.rate ?? 48_000, true);
  view.setUint32(28, (o.rate ?? 48_000) * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, o.bits, true);
  if (o.extensible) {
    view.setUint16(36, 22, true);
    view.setUint16(38, o.bits, true);
    view.setUint32(40, (1 << o.channels) - 1, true); // the speakers: the first `channels` of them
    view.setUint16(44, o.format, true); // the sub-format GUID: the format, then KSDATAFORMAT's tail
    [0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xaa, 0, 0x38, 0x9b, 0x71].forEach((b, i) => {
      view.setUint8(46 + i, b);
    });
  }
  const data = 12 + 8 + fmtSize;
  ascii(data, 'data');
  view.setUint32(data + 4, dataSize, true);
  let seed = 12345;
  for (let i = 0; i < dataSize; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    bytes[data + 8 + i] = seed >>> 24;
  }
  if (o.format === 3) {
    // Finite floats only: random bytes could spell NaNs, whose payloads need not survive a copy.
    for (let at = data + 8; at < bytes.length; at += 4)
      view.setFloat32(at, ((at * 7919) % 4001) / 1000 - 2, true);
  }
  return bytes.buffer;
};
