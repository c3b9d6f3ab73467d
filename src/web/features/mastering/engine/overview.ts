/**
 * A waveform overview (min/max per column) built in slices with event-loop turns between them, so a
 * ten-minute track never blocks the page.
 */
export interface Overview {
  min: Float32Array;
  max: Float32Array;
}

export const OVERVIEW_COLUMNS = 1200;
const SLICE = 1 << 20;

const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export const buildOverview = async (
  channels: readonly Float32Array[],
  columns = OVERVIEW_COLUMNS,
  signal?: AbortSignal,
): Promise<Overview> => {
  const frames = channels[0]?.length ?? 0;
  const min = new Float32Array(columns);
  const max = new Float32Array(columns);
  const per = Math.max(1, frames / columns);
  for (let start = 0; start < frames; start += SLICE) {
    const end = Math.min(frames, start + SLICE);
    for (const data of channels) {
      for (let i = start; i < end; i++) {
        const col = Math.min(columns - 1, Math.floor(i / per));
        const v = data[i]!;
        if (v < min[col]!) min[col] = v;
        if (v > max[col]!) max[col] = v;
      }
    }
    signal?.throwIfAborted();
    await turn();
  }
  return { min, max };
};
