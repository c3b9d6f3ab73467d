import {
  type PlaybackOutput,
  type ScheduledClip,
  TRACK_TYPES,
  type TrackType,
  WebAudioPlayback,
} from '../../../audio';

/**
 * Live playback with a level per track (the upload boxes' volumes) under the master preview volume.
 * A thin adapter over the engine's WebAudioPlayback, one per track, each into its own gain node; it also
 * gives the preview and final-mix players the same master gain, so one volume governs all listening.
 */
export class TrackPlayback implements PlaybackOutput {
  readonly ctx: AudioContext;
  readonly master: GainNode;
  readonly #tracks: Record<TrackType, { gain: GainNode; playback: WebAudioPlayback }>;

  constructor(ctx: AudioContext) {
    this.ctx = ctx;
    this.master = ctx.createGain();
    this.master.connect(ctx.destination);
    const track = () => {
      const gain = ctx.createGain();
      gain.connect(this.master);
      return { gain, playback: new WebAudioPlayback(ctx, gain) };
    };
    this.#tracks = { vocals: track(), instrumental: track() };
  }

  get currentTime(): number {
    return this.ctx.currentTime;
  }

  setBuffer(type: TrackType, buffer: AudioBuffer | null): void {
    this.#tracks[type].playback.setBuffer(type, buffer);
  }

  hasTrack(type: TrackType): boolean {
    return this.#tracks[type].playback.hasTrack(type);
  }

  start(schedule: readonly ScheduledClip[], at: number): void {
    for (const type of TRACK_TYPES) {
      this.#tracks[type].playback.start(
        schedule.filter((s) => s.trackType === type),
        at,
      );
    }
  }

  stop(): void {
    for (const type of TRACK_TYPES) this.#tracks[type].playback.stop();
  }

  setVolume(gain: number): void {
    this.master.gain.setTargetAtTime(gain, this.ctx.currentTime, 0.01);
  }

  setTrackVolume(type: TrackType, gain: number): void {
    this.#tracks[type].gain.gain.setTargetAtTime(gain, this.ctx.currentTime, 0.01);
  }

  dispose(): void {
    for (const type of TRACK_TYPES) this.#tracks[type].playback.dispose();
    this.master.disconnect();
  }
}

/**
 * Plays one rendered buffer at a time (a preview or the final mix). Starting another stops the current one;
 * a preview stops by itself after its 10 s (the buffer's own length) and reports it.
 */
export class BufferPlayer {
  #source: AudioBufferSourceNode | null = null;
  #key: string | null = null;
  readonly #out: AudioNode;
  readonly #ctx: AudioContext;
  readonly #onChange: (key: string | null) => void;

  constructor(ctx: AudioContext, out: AudioNode, onChange: (key: string | null) => void) {
    this.#ctx = ctx;
    this.#out = out;
    this.#onChange = onChange;
  }

  get playing(): string | null {
    return this.#key;
  }

  play(key: string, buffer: AudioBuffer, maxSeconds?: number): void {
    this.stop();
    const source = this.#ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(this.#out);
    source.onended = () => {
      if (this.#source !== source) return;
      source.disconnect();
      this.#source = null;
      this.#key = null;
      this.#onChange(null);
    };
    source.start(0, 0, maxSeconds);
    this.#source = source;
    this.#key = key;
    this.#onChange(key);
  }

  stop(): void {
    const source = this.#source;
    if (!source) return;
    this.#source = null;
    this.#key = null;
    source.onended = null;
    try {
      source.stop();
    } catch {
      // Never started or already ended: nothing to silence.
    }
    source.disconnect();
    this.#onChange(null);
  }
}
