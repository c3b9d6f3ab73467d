import {
  type LivePitchVocal,
  type PlaybackOutput,
  type ScheduledClip,
  type TimelineClip,
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
  /** Issue 27: the vocal through the live pitch worklet instead of buffer sources (decision 260). */
  #liveVocal: LivePitchVocal | null = null;
  /** The vocal part of the running schedule, as clips on the context's clock (null while stopped). */
  #vocalClips: TimelineClip[] | null = null;
  #vocalSchedule: { schedule: ScheduledClip[]; at: number } | null = null;

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
    const vocal = schedule.filter((s) => s.trackType === 'vocals');
    this.#vocalSchedule = { schedule: vocal, at };
    this.#vocalClips = onContextClock(vocal, at, this.ctx.sampleRate);
    if (this.#liveVocal) this.#liveVocal.play(this.#vocalClips);
    else this.#tracks.vocals.playback.start(vocal, at);
    this.#tracks.instrumental.playback.start(
      schedule.filter((s) => s.trackType === 'instrumental'),
      at,
    );
  }

  stop(): void {
    for (const type of TRACK_TYPES) this.#tracks[type].playback.stop();
    this.#liveVocal?.stop();
    this.#vocalClips = null;
    this.#vocalSchedule = null;
  }

  /**
   * The vocal plays through the live pitch worklet (or, null, from its buffer again). While playing the switch
   * happens at once: both paths place the clips on the same context clock, so the vocal carries on in time.
   */
  setLiveVocal(vocal: LivePitchVocal | null): void {
    if (vocal === this.#liveVocal) return;
    const previous = this.#liveVocal;
    this.#liveVocal = vocal;
    vocal?.node.connect(this.#tracks.vocals.gain);
    if (previous) {
      previous.stop();
      previous.node.disconnect();
    }
    const running = this.#vocalSchedule;
    if (!running) return;
    if (vocal) {
      this.#tracks.vocals.playback.stop();
      vocal.play(this.#vocalClips ?? []);
    } else
      this.#tracks.vocals.playback.start(
        laterPart(running.schedule, running.at, this.ctx.currentTime),
        this.ctx.currentTime,
      );
  }

  get liveVocal(): LivePitchVocal | null {
    return this.#liveVocal;
  }

  setVolume(gain: number): void {
    this.master.gain.setTargetAtTime(gain, this.ctx.currentTime, 0.01);
  }

  setTrackVolume(type: TrackType, gain: number): void {
    this.#tracks[type].gain.gain.setTargetAtTime(gain, this.ctx.currentTime, 0.01);
  }

  dispose(): void {
    for (const type of TRACK_TYPES) this.#tracks[type].playback.dispose();
    this.#liveVocal?.dispose();
    this.master.disconnect();
  }
}

/**
 * Scheduled vocal clips as timeline clips on the context's clock (positions in context frames, source ranges
 * in samples at the context's rate), the form the live pitch worklet lays out with the render's organiser.
 */
export const onContextClock = (
  schedule: readonly ScheduledClip[],
  at: number,
  rate: number,
): TimelineClip[] =>
  schedule.map((s) => {
    const sourceStart = Math.round(s.offset * rate);
    return {
      id: s.clipId,
      trackType: s.trackType,
      position: Math.round((at + s.delay) * rate),
      sourceStart,
      sourceEnd: sourceStart + Math.round(s.duration * rate),
    };
  });

/** What is left at `now` of a schedule started at `at` (for a switch from the worklet back to buffers). */
const laterPart = (schedule: readonly ScheduledClip[], at: number, now: number): ScheduledClip[] =>
  schedule.flatMap((s) => {
    const skip = Math.max(0, now - (at + s.delay));
    if (skip >= s.duration) return [];
    return [
      { ...s, delay: Math.max(0, at + s.delay - now), offset: s.offset + skip, duration: s.duration - skip },
    ];
  });

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
