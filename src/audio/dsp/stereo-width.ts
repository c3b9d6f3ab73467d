/**
 * Stereo width by mid/side scaling (spec 9): side x width/50. Width 50 leaves the samples untouched (the
 * function returns without reading them), mono input has no side to scale, and a stereo pair with equal
 * channels stays equal (its side is exactly zero).
 */

export const widthFactor = (stereoWidth: number): number => Math.max(0, stereoWidth) / 50;

export const applyStereoWidth = (
  channels: readonly Float32Array[],
  stereoWidth: number,
  start = 0,
  end = channels[0]?.length ?? 0,
): void => {
  if (channels.length !== 2 || stereoWidth === 50) return;
  const w = widthFactor(stereoWidth);
  const left = channels[0]!;
  const right = channels[1]!;
  for (let i = start; i < end; i++) {
    const l = left[i]!;
    const r = right[i]!;
    const mid = (l + r) * 0.5;
    const side = (l - r) * 0.5 * w;
    left[i] = mid + side;
    right[i] = mid - side;
  }
};
