/**
 * RMS and peak over fixed windows (100 ms by default, the spec's meter rate) for the live level meter.
 * Readings are linear (0..1+) and in dBFS; all channels count together.
 */

export interface LevelReading {
  rms: number;
  peak: number;
  rmsDb: number;
  peakDb: number;
}

const toDb = (v: number): number => (v > 0 ? 20 * Math.log10(v) : -Infinity);

export class LevelMeter {
  readonly windowFrames: number;
  #sum = 0;
  #peak = 0;
  #frames = 0;
  #onReading: (reading: LevelReading) => void;

  constructor(sampleRate: number, onReading: (reading: LevelReading) => void, windowMs = 100) {
    this.windowFrames = Math.max(1, Math.round((sampleRate * windowMs) / 1000));
    this.#onReading = onReading;
  }

  push(channels: readonly Float32Array[], start = 0, end = channels[0]?.length ?? 0): void {
    const count = channels.length;
    let position = start;
    while (position < end) {
      const stop = Math.min(end, position + (this.windowFrames - this.#frames));
      let sum = this.#sum;
      let peak = this.#peak;
      for (let c = 0; c < count; c++) {
        const data = channels[c]!;
        for (let i = position; i < stop; i++) {
          const v = data[i]!;
          sum += v * v;
          const a = v < 0 ? -v : v;
          if (a > peak) peak = a;
        }
      }
      this.#sum = sum;
      this.#peak = peak;
      this.#frames += stop - position;
      position = stop;
      if (this.#frames === this.windowFrames) {
        const rms = Math.sqrt(this.#sum / (this.windowFrames * Math.max(1, count)));
        this.#onReading({ rms, peak: this.#peak, rmsDb: toDb(rms), peakDb: toDb(this.#peak) });
        this.#sum = 0;
        this.#peak = 0;
        this.#frames = 0;
      }
    }
  }
}
