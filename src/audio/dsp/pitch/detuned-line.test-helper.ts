/**
 * A stereo "sung" line for the live pitch tests (Node and the Chromium harness): harmonic notes 25-40 cents
 * off A minor, with rests and a little vibrato. Pure (no Node imports), so the browser harness can bundle it.
 */
export const detunedLine = (seconds: number, rate: number): Float32Array[] => {
  const notes = [57.3, 60.35, 64.28, 62.4, 59.7];
  const n = Math.round(seconds * rate);
  const left = new Float32Array(n);
  const right = new Float32Array(n);
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    const slot = t % 0.8;
    if (slot > 0.65) continue;
    const midi = notes[Math.floor(t / 0.8) % notes.length]! + 0.1 * Math.sin(2 * Math.PI * 5.5 * t);
    phase += (2 * Math.PI * 440 * 2 ** ((midi - 69) / 12)) / rate;
    let v = 0;
    for (let h = 1; h <= 8; h++) v += Math.sin(h * phase) / h;
    const env = Math.min(1, slot / 0.02, (0.65 - slot) / 0.02);
    left[i] = 0.2 * env * v;
    right[i] = 0.15 * env * v + 0.002 * Math.sin(i * 0.37);
  }
  return [left, right];
};
