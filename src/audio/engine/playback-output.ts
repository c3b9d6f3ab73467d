import type { TrackType } from '../model/clip';
import type { ScheduledClip } from './schedule';

/**
 * Where the engine's transport makes sound and reads time. The browser implementation is Web Audio
 * (`WebAudioPlayback`); the engine itself stays free of Web Audio so its logic runs in Node.
 */
export interface PlaybackOutput {
  /** The clock playback runs on, in seconds (AudioContext.currentTime). */
  readonly currentTime: number;
  /** Start every scheduled clip, with delays counted from `at` on this output's clock. */
  start(schedule: readonly ScheduledClip[], at: number): void;
  /** Silence everything started. */
  stop(): void;
  /** Preview volume 0..1 (does not affect the final mix). */
  setVolume(gain: number): void;
  /** Whether a track has audio to play. */
  hasTrack(trackType: TrackType): boolean;
}
