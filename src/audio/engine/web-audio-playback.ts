import type { TrackType } from '../model/clip';
import type { PlaybackOutput } from './playback-output';
import type { ScheduledClip } from './schedule';

/**
 * Live playback through Web Audio: one AudioBufferSourceNode per scheduled clip into a preview-volume gain.
 * Thin on purpose: which clip plays when is decided by the pure `scheduleFrom`.
 */
export class WebAudioPlayback implements PlaybackOutput {
  readonly #ctx: BaseAudioContext;
  readonly #gain: GainNode;
  #buffers: Partial<Record<TrackType, AudioBuffer>> = {};
  #sources: AudioBufferSourceNode[] = [];

  constructor(ctx: BaseAudioContext, destination: AudioNode = ctx.destination) {
    this.#ctx = ctx;
    this.#gain = ctx.createGain();
    this.#gain.connect(destination);
  }

  get currentTime(): number {
    return this.#ctx.currentTime;
  }

  setBuffer(trackType: TrackType, buffer: AudioBuffer | null): void {
    if (buffer) this.#buffers[trackType] = buffer;
    else delete this.#buffers[trackType];
  }

  hasTrack(trackType: TrackType): boolean {
    return this.#buffers[trackType] !== undefined;
  }

  start(schedule: readonly ScheduledClip[], at: number): void {
    for (const item of schedule) {
      const buffer = this.#buffers[item.trackType];
      if (!buffer || item.duration <= 0) continue;
      const source = this.#ctx.createBufferSource();
      source.buffer = buffer;
      source.connect(this.#gain);
      source.start(at + item.delay, item.offset, item.duration);
      source.onended = () => {
        source.disconnect();
        this.#sources = this.#sources.filter((s) => s !== source);
      };
      this.#sources.push(source);
    }
  }

  stop(): void {
    for (const source of this.#sources) {
      source.onended = null;
      try {
        source.stop();
      } catch {
        // Already stopped: nothing to silence.
      }
      source.disconnect();
    }
    this.#sources = [];
  }

  setVolume(gain: number): void {
    this.#gain.gain.setTargetAtTime(gain, this.#ctx.currentTime, 0.01);
  }

  dispose(): void {
    this.stop();
    this.#gain.disconnect();
  }
}

/**
 * A decoded track (or null to clear it) into both the playback output and the engine, in the order live
 * playback needs: the audio first, then the clips that schedule it.
 */
export const loadTrack = (
  engine: { setTrack(trackType: TrackType, durationSeconds: number | null): void },
  playback: WebAudioPlayback,
  trackType: TrackType,
  buffer: AudioBuffer | null,
): void => {
  playback.setBuffer(trackType, buffer);
  engine.setTrack(trackType, buffer ? buffer.duration : null);
};
