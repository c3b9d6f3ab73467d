import { nudgeSeconds, type SnapMode, snapSeconds } from '../model/beat-grid';
import { type SavedClips, samplesToSeconds, secondsToSamples, type TrackType } from '../model/clip';
import { beginGesture, commit, endGesture, redo, reload, undo } from '../model/history';
import { clipsFromSaved } from '../model/saved-clips';
import type { SongFacts } from '../model/song-facts';
import {
  clearSelection,
  cutAt,
  deleteSelected,
  loadSource,
  moveClip,
  resetClips,
  selectClip,
  type Timeline,
  timelineLength,
  unloadSource,
} from '../model/timeline';
import {
  END_FRACTION,
  hasReachedEnd,
  pausedPosition,
  playStartPosition,
  seekTarget,
} from '../model/transport';
import { initialMixerState, type MixerState } from './mixer-state';
import type { PlaybackOutput } from './playback-output';
import { scheduleFrom } from './schedule';

/** Sources start this far ahead of "now" so every clip of one start shares the same sample-exact origin. */
export const START_LEAD_SECONDS = 0.02;

export interface MixerEngineOptions {
  /** The running AudioContext's rate: the timeline's unit. */
  sampleRate: number;
  /** Where sound goes; without one the transport runs on `clock` alone (tests, server-side rendering). */
  output?: PlaybackOutput;
  /** Seconds; defaults to the output's clock. */
  clock?: () => number;
  /** Timer for the end-of-playback check; defaults to setTimeout. */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/**
 * The mixer's engine: it owns the timeline, its edit history and the transport. React subscribes with
 * `useSyncExternalStore(engine.subscribe, engine.getState)`; the moving playhead is read per animation frame
 * with `getPlayheadSeconds()` and never goes through React state.
 */
export class MixerEngine {
  #state: MixerState;
  #listeners = new Set<() => void>();
  #output: PlaybackOutput | undefined;
  #clock: () => number;
  #setTimer: (fn: () => void, ms: number) => unknown;
  #clearTimer: (handle: unknown) => void;
  #endTimer: unknown = null;
  /** Output-clock time at which the transport's `position` is heard (valid while playing). */
  #anchorTime = 0;
  #pendingSaved: SavedClips = {};

  constructor(options: MixerEngineOptions) {
    this.#state = initialMixerState(options.sampleRate);
    this.#output = options.output;
    const output = options.output;
    this.#clock = options.clock ?? (output ? () => output.currentTime : () => performance.now() / 1000);
    this.#setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.#clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    output?.setVolume(this.#state.previewVolume / 100);
  }

  getState = (): MixerState => this.#state;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  get sampleRate(): number {
    return this.#timeline.sampleRate;
  }

  get #timeline(): Timeline {
    return this.#state.history.present;
  }

  /** The playhead in timeline samples, live while playing. */
  getPlayheadSample(): number {
    const { transport } = this.#state;
    if (!transport.playing) return transport.position;
    const elapsed = Math.max(0, this.#clock() - this.#anchorTime);
    return Math.min(
      transport.position + Math.round(elapsed * this.sampleRate),
      timelineLength(this.#timeline),
    );
  }

  getPlayheadSeconds(): number {
    return this.getPlayheadSample() / this.sampleRate;
  }

  // --- sources ------------------------------------------------------------------------------------------

  /**
   * A track finished decoding (or was cleared with `null`). Its length converts to timeline samples through
   * seconds, because the file may have been decoded at its own rate rather than the context's.
   */
  setTrack(trackType: TrackType, durationSeconds: number | null): void {
    const t = this.#timeline;
    let next: Timeline;
    if (durationSeconds === null) {
      next = unloadSource(t, trackType);
    } else {
      const length = Math.max(1, secondsToSamples(durationSeconds, t.sampleRate));
      const saved = clipsFromSaved(this.#pendingSaved[trackType], trackType, length, t.sampleRate);
      this.#pendingSaved = { ...this.#pendingSaved, [trackType]: undefined };
      next = loadSource(t, trackType, length, saved);
    }
    // While playing, the new clips are rescheduled from the live playhead (the output must already hold the
    // new audio: see `loadTrack`).
    this.#applyHistory(reload(this.#state.history, next));
  }

  /** A saved session's clips; each track's take effect when that track is (or already was) loaded. */
  loadSavedClips(saved: SavedClips): void {
    this.#pendingSaved = { ...saved };
    const t = this.#timeline;
    let next = t;
    for (const type of ['vocals', 'instrumental'] as const) {
      const length = t.sources[type];
      if (length === undefined || !saved[type]) continue;
      next = loadSource(next, type, length, clipsFromSaved(saved[type], type, length, t.sampleRate));
      this.#pendingSaved = { ...this.#pendingSaved, [type]: undefined };
    }
    if (next !== t) this.#applyHistory(reload(this.#state.history, next));
  }

  // --- edits ----------------------------------------------------------------------------------------------

  selectClip(id: string): void {
    this.#edit(selectClip(this.#timeline, id));
  }

  clearSelection(): void {
    this.#edit(clearSelection(this.#timeline));
  }

  cutAtPlayhead(): void {
    this.#edit(cutAt(this.#timeline, this.getPlayheadSample()));
  }

  deleteSelected(): void {
    this.#edit(deleteSelected(this.#timeline));
  }

  /** Mouse-down on a vocal clip: it is selected and a drag gesture (one undo step) begins. */
  beginDrag(id: string): void {
    const history = beginGesture(this.#state.history);
    this.#set({ ...this.#state, history: commit(history, selectClip(history.present, id)) });
  }

  dragTo(id: string, positionSeconds: number): void {
    this.#edit(moveClip(this.#timeline, id, positionSeconds, this.#snapper()));
  }

  /** The song facts' grid snapping while snap is on; undefined keeps the 10 ms grid. */
  #snapper(): ((seconds: number) => number) | undefined {
    const { songFacts, snap } = this.#state;
    if (!songFacts || snap === 'off') return undefined;
    return (seconds) => snapSeconds(seconds, songFacts, snap);
  }

  /** The beat's tempo, grid and key (from the analysis or the user), or null when the beat is gone. */
  setSongFacts(facts: SongFacts | null): void {
    this.#set({ ...this.#state, songFacts: facts });
  }

  setSnap(snap: SnapMode): void {
    if (snap !== this.#state.snap) this.#set({ ...this.#state, snap });
  }

  /** Arrow keys: the selected vocal clip moves one grid step (a beat, a bar, or 10 ms with snap off). */
  nudgeSelected(direction: 1 | -1): void {
    const t = this.#timeline;
    const clip = t.clips.find((c) => c.id === t.selectedId);
    if (!clip) return;
    const { songFacts, snap } = this.#state;
    const from = samplesToSeconds(clip.position, t.sampleRate);
    const to = nudgeSeconds(from, songFacts, snap, direction);
    this.#edit(moveClip(t, clip.id, to, snap === 'off' || !songFacts ? undefined : (s) => s));
  }

  endDrag(): void {
    this.#set({ ...this.#state, history: endGesture(this.#state.history) });
  }

  undo(): void {
    this.#applyHistory(undo(this.#state.history));
  }

  redo(): void {
    this.#applyHistory(redo(this.#state.history));
  }

  /** Reset All: stop, back to 0, nothing selected, one full-length clip per loaded track. */
  resetAll(): void {
    this.#stopOutput();
    const history = commit(this.#state.history, resetClips(this.#timeline));
    this.#set({ ...this.#state, history, transport: { playing: false, position: 0 } });
  }

  /** Apply Sequence: playback stops and the current clips become the ones previews and the mixdown use. */
  applySequence(): Timeline {
    if (this.#state.transport.playing) this.pause();
    const applied = this.#timeline;
    this.#set({ ...this.#state, applied, appliedRevision: this.#state.appliedRevision + 1 });
    return applied;
  }

  // --- transport ------------------------------------------------------------------------------------------

  play(): void {
    if (this.#state.transport.playing) return;
    const length = timelineLength(this.#timeline);
    const position = playStartPosition(this.#state.transport.position, length);
    this.#startAt(position);
    this.#set({ ...this.#state, transport: { playing: true, position } });
  }

  pause(): void {
    if (!this.#state.transport.playing) return;
    const position = pausedPosition(this.getPlayheadSample(), timelineLength(this.#timeline));
    this.#stopOutput();
    this.#set({ ...this.#state, transport: { playing: false, position } });
  }

  togglePlay(): void {
    if (this.#state.transport.playing) this.pause();
    else this.play();
  }

  /** Seek to a time in seconds; ignored outside 0..duration. */
  seek(seconds: number): void {
    const target = seekTarget(seconds * this.sampleRate, timelineLength(this.#timeline));
    if (target === null) return;
    if (this.#state.transport.playing) {
      this.#stopOutput();
      this.#startAt(target);
      this.#set({ ...this.#state, transport: { playing: true, position: target } });
    } else {
      this.#set({ ...this.#state, transport: { playing: false, position: target } });
    }
  }

  setPreviewVolume(volume: number): void {
    const v = Math.min(Math.max(Math.round(volume), 0), 100);
    if (v === this.#state.previewVolume) return;
    this.#output?.setVolume(v / 100);
    this.#set({ ...this.#state, previewVolume: v });
  }

  dispose(): void {
    this.#stopOutput();
    this.#listeners.clear();
  }

  // --- internals ------------------------------------------------------------------------------------------

  #startAt(position: number): void {
    const now = this.#clock();
    this.#anchorTime = now + (this.#output ? START_LEAD_SECONDS : 0);
    this.#output?.start(scheduleFrom(this.#timeline.clips, position, this.sampleRate), this.#anchorTime);
    this.#armEndTimer(position);
  }

  /** Wake up when playback should reach 99%; re-arm if the audio clock has not got there yet. */
  #armEndTimer(position: number): void {
    if (this.#endTimer !== null) this.#clearTimer(this.#endTimer);
    const endSample = END_FRACTION * timelineLength(this.#timeline);
    const remaining = Math.max(0, (endSample - position) / this.sampleRate);
    this.#endTimer = this.#setTimer(() => this.#onEndTimer(), Math.ceil(remaining * 1000) + 1);
  }

  #onEndTimer(): void {
    this.#endTimer = null;
    if (!this.#state.transport.playing) return;
    const now = this.getPlayheadSample();
    const length = timelineLength(this.#timeline);
    if (hasReachedEnd(now, length)) {
      this.#stopOutput();
      this.#set({ ...this.#state, transport: { playing: false, position: pausedPosition(now, length) } });
    } else {
      this.#armEndTimer(now);
    }
  }

  #stopOutput(): void {
    if (this.#endTimer !== null) this.#clearTimer(this.#endTimer);
    this.#endTimer = null;
    this.#output?.stop();
  }

  #edit(next: Timeline): void {
    this.#applyHistory(commit(this.#state.history, next));
  }

  /** Commit a history change; while playing, clip changes are rescheduled from the live playhead. */
  #applyHistory(history: MixerState['history']): void {
    if (history === this.#state.history) return;
    const clipsChanged = history.present.clips !== this.#timeline.clips;
    if (this.#state.transport.playing && clipsChanged) {
      const position = this.getPlayheadSample();
      this.#stopOutput();
      this.#set({ ...this.#state, history });
      this.#startAt(position);
      this.#set({ ...this.#state, transport: { playing: true, position } });
      return;
    }
    this.#set({ ...this.#state, history });
  }

  #set(next: MixerState): void {
    if (next === this.#state) return;
    // A track can disappear or shrink while playing: keep the transport inside the new timeline.
    const length = timelineLength(next.history.present);
    if (!next.transport.playing && next.transport.position > length) {
      next = { ...next, transport: { playing: false, position: 0 } };
    }
    this.#state = next;
    for (const listener of this.#listeners) listener();
  }
}
