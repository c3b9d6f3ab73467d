/**
 * The album's continuous preview (issue 31): the mastered tracks scheduled back to back on one
 * AudioContext at the places the sequence layout gives (albumcore's planSequence, the same layout the
 * continuous file and its CUE sheet are made from), with equal-power fades where tracks overlap. The
 * playhead is read from the context's clock (a requestAnimationFrame loop in the view draws it); the
 * state changes only when the playhead enters another track, so the list highlights it.
 * "Audition transition" plays albumcore's rendering of the last 10 s of one track into the next.
 */

import { MUTE_LENGTH_S, muteWindowStarts } from '../mastering-rules';
import type { PlayAs } from '../player/play-as';
import {
  AUDITION_SECONDS,
  planSequence,
  type SequenceLayout,
  type SequenceOptions,
  transitionAudition,
} from './album-engine';
import { CROSSFADE_SECONDS } from './album-rules';
import type { AlbumState } from './album-state';
import type { AlbumContext } from './album-store';

const channelsOf = (b: AudioBuffer) =>
  Array.from({ length: b.numberOfChannels }, (_, c) => b.getChannelData(c));

/** The sequence options of the state: the gap, and a crossfade where asked. */
export const sequenceOptions = (s: Pick<AlbumState, 'tracks' | 'sequence'>): SequenceOptions => ({
  gapSeconds: s.sequence.gapSeconds,
  transitions: s.tracks
    .slice(0, -1)
    .map((t) => (s.sequence.crossfades[t.key] ? { crossfadeSeconds: CROSSFADE_SECONDS } : undefined)),
});

/** The masters in the record's order, when every track has one. */
const mastersInOrder = (s: AlbumState): AudioBuffer[] | null => {
  const buffers = s.tracks.map((t) => s.masters[t.key]?.buffer);
  return buffers.length > 0 && buffers.every((b) => b !== undefined) ? (buffers as AudioBuffer[]) : null;
};

/** The record's layout at the first master's rate (every track's length at that rate). */
export const layoutOf = (s: AlbumState): SequenceLayout | null => {
  const buffers = mastersInOrder(s);
  if (!buffers) return null;
  const rate = buffers[0]!.sampleRate;
  const lengths = buffers.map((b) => Math.round((b.length * rate) / b.sampleRate));
  return planSequence(lengths, rate, sequenceOptions(s));
};

/** Index of the track under `sample` of the record: the last whose start is at or before it. */
export const trackAt = (layout: SequenceLayout, sample: number): number => {
  let index = 0;
  layout.starts.forEach((start, i) => {
    if (start <= sample) index = i;
  });
  return index;
};

export class AlbumPlayer {
  #ctx: AlbumContext;
  #audio: AudioContext | null = null;
  #nodes: AudioScheduledSourceNode[] = [];
  #layout: SequenceLayout | null = null;
  /** Context time at which the record's sample 0 plays (record time = audio.currentTime - zero). */
  #zero = 0;
  /** The record's seconds where what plays ends (the record's end, or the audition's). */
  #end = 0;
  #timer: ReturnType<typeof setInterval> | null = null;
  /** What plays goes through this gain: spec 4's preview muting, when it applies, is scheduled on it. */
  #out: GainNode | null = null;

  /** Stops what plays elsewhere (a track's Live preview) before this player starts. */
  #beforePlay: () => void;

  constructor(ctx: AlbumContext, beforePlay: () => void) {
    this.#ctx = ctx;
    this.#beforePlay = beforePlay;
  }

  /** Seconds into the record under the playhead, or null when nothing plays. */
  position(): number | null {
    if (!this.#audio || !this.#ctx.state().playing) return null;
    return Math.max(0, this.#audio.currentTime - this.#zero);
  }

  /** The layout of what plays (or would play now). */
  layout(): SequenceLayout | null {
    return this.#ctx.state().playing ? this.#layout : layoutOf(this.#ctx.state());
  }

  /** The whole record from `fromSeconds` (a track's start when jumping). */
  async playRecord(fromSeconds = 0): Promise<void> {
    const state = this.#ctx.state();
    const buffers = mastersInOrder(state);
    const layout = layoutOf(state);
    if (!buffers || !layout) return;
    this.#beforePlay();
    this.#stopNodes();
    const audio = await this.#context();
    const rate = layout.sampleRate;
    const now = audio.currentTime + 0.05;
    this.#zero = now - fromSeconds;
    this.#layout = layout;
    this.#end = layout.frames / rate;
    const out = this.#output(audio, now, fromSeconds);
    buffers.forEach((buffer, i) => {
      const start = layout.audioStarts[i]! / rate;
      const end = layout.audioEnds[i]! / rate;
      if (end <= fromSeconds) return;
      const source = new AudioBufferSourceNode(audio, { buffer });
      const gain = new GainNode(audio);
      source.connect(gain).connect(out);
      // Equal-power fades where the neighbours overlap this track (a crossfade).
      const fadeIn = i > 0 ? Math.max(0, (layout.audioEnds[i - 1]! - layout.audioStarts[i]!) / rate) : 0;
      const fadeOut =
        i < buffers.length - 1 ? Math.max(0, (layout.audioEnds[i]! - layout.audioStarts[i + 1]!) / rate) : 0;
      const at = (t: number) => this.#zero + t;
      try {
        if (fadeIn > 0 && at(start + fadeIn) > now) this.#curve(gain, at(start), fadeIn, true, now);
        if (fadeOut > 0) this.#curve(gain, at(end - fadeOut), fadeOut, false, now);
      } catch {
        // A track shorter than its two fades: the automations would overlap; it plays unfaded.
      }
      const skip = Math.max(0, fromSeconds - start);
      source.start(Math.max(now, at(start)), skip);
      this.#nodes.push(source);
    });
    this.#ctx.set({
      playing: {
        kind: 'record',
        from: null,
        current: state.tracks[trackAt(layout, fromSeconds * rate)]?.key ?? null,
      },
    });
    this.#watch();
  }

  /** Jumps the playhead to the start of track `index` (the record keeps playing from there). */
  jumpTo(index: number): Promise<void> {
    const layout = layoutOf(this.#ctx.state());
    if (!layout || index < 0 || index >= layout.starts.length) return Promise.resolve();
    return this.playRecord(layout.starts[index]! / layout.sampleRate);
  }

  /** The last AUDITION_SECONDS of track `index` into the first of the next, as the record joins them. */
  async audition(index: number): Promise<void> {
    const state = this.#ctx.state();
    const buffers = mastersInOrder(state);
    const layout = layoutOf(state);
    if (!buffers || !layout || index < 0 || index >= buffers.length - 1) return;
    this.#beforePlay();
    this.#stopNodes();
    const rate = layout.sampleRate;
    const tracks = buffers.map(channelsOf);
    const cut = transitionAudition(tracks, rate, sequenceOptions(state), index, AUDITION_SECONDS);
    const audio = await this.#context();
    const buffer = new AudioBuffer({
      length: Math.max(1, cut.channels[0]!.length),
      numberOfChannels: cut.channels.length,
      sampleRate: rate,
    });
    for (const [i, c] of cut.channels.entries()) buffer.copyToChannel(c as Float32Array<ArrayBuffer>, i);
    const source = new AudioBufferSourceNode(audio, { buffer });
    const now = audio.currentTime + 0.05;
    // The audition sits on the record where its boundary is the next track's start.
    const recordFrom = (layout.starts[index + 1]! - cut.boundary) / rate;
    this.#zero = now - recordFrom;
    this.#layout = layout;
    this.#end = recordFrom + buffer.duration;
    source.connect(this.#output(audio, now, recordFrom));
    source.start(now);
    this.#nodes.push(source);
    this.#ctx.set({
      playing: { kind: 'transition', from: state.tracks[index]!.key, current: state.tracks[index]!.key },
    });
    this.#watch();
  }

  /**
   * One track's master alone (or its platform or codec version), `gainDb` louder, said as playing `as`: the
   * per-track "how it will play" and codec preview. The playhead stands on the record where the track is.
   */
  async playTrack(key: string, buffer: AudioBuffer, gainDb: number, as: PlayAs): Promise<void> {
    const state = this.#ctx.state();
    const index = state.tracks.findIndex((t) => t.key === key);
    const layout = layoutOf(state);
    if (index < 0 || !layout) return;
    this.#beforePlay();
    this.#stopNodes();
    const audio = await this.#context();
    const now = audio.currentTime + 0.05;
    const recordFrom = layout.audioStarts[index]! / layout.sampleRate;
    this.#zero = now - recordFrom;
    this.#layout = layout;
    this.#end = recordFrom + buffer.duration;
    const source = new AudioBufferSourceNode(audio, { buffer });
    source
      .connect(new GainNode(audio, { gain: 10 ** (gainDb / 20) }))
      .connect(this.#output(audio, now, recordFrom));
    source.start(now);
    this.#nodes.push(source);
    this.#ctx.set({ playing: { kind: 'track', from: key, current: key, as } });
    this.#watch();
  }

  stop(): void {
    this.#stopNodes();
    if (this.#ctx.state().playing) this.#ctx.set({ playing: null });
  }

  dispose(): void {
    this.stop();
    void this.#audio?.close();
    this.#audio = null;
  }

  /**
   * A fresh output for what starts playing at `now` from the record's `from` seconds. For a user in
   * preview mode (no credits or crowns) the last second of every five of the record is silent (spec 4).
   */
  #output(audio: AudioContext, now: number, from: number): GainNode {
    const out = new GainNode(audio);
    out.connect(audio.destination);
    this.#out = out;
    if (!this.#ctx.deps.previewMode()) return out;
    const RAMP = 0.005;
    for (const start of muteWindowStarts(from, this.#end)) {
      const t = now + start - from;
      if (t + MUTE_LENGTH_S <= now) continue;
      if (t - RAMP < now) out.gain.setValueAtTime(0, now);
      else {
        out.gain.setValueAtTime(1, t - RAMP);
        out.gain.linearRampToValueAtTime(0, t);
      }
      out.gain.setValueAtTime(0, t + MUTE_LENGTH_S - RAMP);
      out.gain.linearRampToValueAtTime(1, t + MUTE_LENGTH_S);
    }
    return out;
  }

  async #context(): Promise<AudioContext> {
    this.#audio ??= new AudioContext({ latencyHint: 'playback' });
    if (this.#audio.state === 'suspended') await this.#audio.resume();
    return this.#audio;
  }

  #curve(gain: GainNode, when: number, seconds: number, rising: boolean, now: number): void {
    const points = 64;
    const curve = new Float32Array(points);
    for (let k = 0; k < points; k++) {
      const x = k / (points - 1);
      curve[k] = Math.sin((Math.PI / 2) * (rising ? x : 1 - x));
    }
    if (when < now) {
      // Already inside the fade: its gain now, then the rest of it as a ramp.
      const x = Math.min(1, (now - when) / seconds);
      gain.gain.setValueAtTime(Math.sin((Math.PI / 2) * (rising ? x : 1 - x)), now);
      gain.gain.linearRampToValueAtTime(rising ? 1 : 0, when + seconds);
      return;
    }
    if (rising) gain.gain.setValueAtTime(0, now);
    gain.gain.setValueCurveAtTime(curve, when, seconds);
  }

  /** Follows the playhead (four times a second is enough for the list): the current track, the end. */
  #watch(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = setInterval(() => {
      const position = this.position();
      const layout = this.#layout;
      if (position === null || !layout) return;
      if (position >= this.#end) {
        this.stop();
        return;
      }
      const playing = this.#ctx.state().playing;
      // A track playing alone stays that track, even where a crossfade would have reached the next.
      if (playing?.kind === 'track') return;
      const key = this.#ctx.state().tracks[trackAt(layout, position * layout.sampleRate)]?.key ?? null;
      if (playing && playing.current !== key) this.#ctx.set({ playing: { ...playing, current: key } });
    }, 250);
  }

  #stopNodes(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    for (const node of this.#nodes) {
      try {
        node.stop();
      } catch {
        // Never started: nothing to stop.
      }
      node.disconnect();
    }
    this.#nodes = [];
    this.#out?.disconnect();
    this.#out = null;
  }
}
