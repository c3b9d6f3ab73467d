/**
 * The album's track list (issue 31): tracks come from files or the user's library (uploads and mixer
 * mixes), each is decoded at its own rate and analysed by the track-analysis worker the single-track page
 * uses; they are reordered (drag or keyboard, each move announced), titled and given an ISRC.
 */
import type { LibraryItem } from '../../../../shared/api/library';
import { decodeAudio } from '../engine/audio-decode';
import { masterClient } from '../engine/master-job';
import type { MasteringSettings } from '../mastering-constants';
import { canUseManual, isAllowedAudio } from '../mastering-rules';
import { NOTICES } from '../mastering-texts';
import { fetchTrackAudio } from '../source/track-fetch';
import { MAX_ALBUM_TRACKS, moveItem, titleFromFileName } from './album-rules';
import type { AlbumTrack, TrackLoad } from './album-state';
import type { AlbumContext } from './album-store';
import { ALBUM_NOTICES } from './album-texts';

/** A library item the album can take: an upload or a mix, each with its audio. */
export type AlbumLibraryItem = Extract<LibraryItem, { kind: 'upload' | 'mix' }>;

interface Peers {
  /** The set of tracks changed: the masters made for the old set no longer hold. */
  invalidate: () => void;
  /** The order changed: the preview stops (its layout no longer holds). */
  stop: () => void;
  /** Track `key`'s sliders changed: its Live preview follows them. */
  manualChanged: (key: string) => void;
}

let nextKey = 0;

export class AlbumTracksController {
  #ctx: AlbumContext;
  #peers: Peers;
  #abort = new AbortController();
  /** Analyses run one after another on the one analysis worker (decodes overlap them). */
  #queue: Promise<void> = Promise.resolve();

  constructor(ctx: AlbumContext, peers: Peers) {
    this.#ctx = ctx;
    this.#peers = peers;
  }

  /** Files dropped or chosen: the audio ones are added in order, up to the album's limit. */
  addFiles(files: readonly File[]): void {
    const audio = files.filter((f) => isAllowedAudio(f));
    if (audio.length < files.length) this.#ctx.deps.notify(NOTICES.invalidFile);
    for (const file of this.#room(audio)) {
      this.#add(file.name, null, async () => file);
    }
  }

  addLibrary(items: readonly AlbumLibraryItem[]): void {
    for (const item of this.#room(items)) {
      const signal = this.#abort.signal;
      this.#add(item.name, item.id, () => fetchTrackAudio(item.audioUrl, signal), item.kind === 'mix');
    }
  }

  remove(key: string): void {
    this.#ctx.set({ tracks: this.#ctx.state().tracks.filter((t) => t.key !== key) });
    this.#peers.invalidate();
  }

  /** Moves a track (drag or keyboard); `announce` says where it went, for the live region. */
  move(from: number, to: number): void {
    const { tracks } = this.#ctx.state();
    const next = moveItem(tracks, from, to);
    if (next === tracks) return;
    this.#peers.stop();
    const moved = tracks[from]!;
    const at = next.indexOf(moved);
    this.#ctx.set({
      tracks: next,
      announcement: `${moved.title} moved to position ${at + 1} of ${next.length}`,
    });
  }

  setTitle(key: string, title: string): void {
    this.#patch(key, { title });
  }

  setIsrc(key: string, isrc: string): void {
    this.#patch(key, { isrc: isrc.toUpperCase() });
  }

  /** The user's distance under the loudest ('' for the plan's estimate): the masters made before go. */
  setDistance(key: string, raw: string): void {
    const value = raw.trim() === '' ? null : Number(raw);
    if (value !== null && !Number.isFinite(value)) return;
    this.#patch(key, { distanceLu: value === null ? null : Math.max(0, value) });
    this.#peers.invalidate();
  }

  /**
   * Unlimited only (spec: 'Manual mastering controls are only available for Unlimited subscribers'): this
   * track's own sliders, null for the album preset's. Nothing else is dropped: the track is mastered again
   * alone (AlbumMasterController.remaster), the album's plan and the other masters stay.
   */
  setManual(key: string, manual: MasteringSettings | null): boolean {
    if (manual && !canUseManual(this.#ctx.deps.user())) {
      this.#ctx.deps.notify(NOTICES.unlimitedRequired);
      return false;
    }
    this.#patch(key, { manual });
    this.#peers.manualChanged(key);
    return true;
  }

  abort(): void {
    this.#abort.abort();
    this.#abort = new AbortController();
  }

  /** As many of `items` as the album has room for; says so when some are left out. */
  #room<T>(items: readonly T[]): readonly T[] {
    const room = MAX_ALBUM_TRACKS - this.#ctx.state().tracks.length;
    if (items.length > room) this.#ctx.deps.notify(ALBUM_NOTICES.tooMany);
    return items.slice(0, Math.max(0, room));
  }

  #add(name: string, trackId: number | null, read: () => Promise<Blob>, mix = false): void {
    const track: AlbumTrack = {
      key: `t${++nextKey}`,
      title: titleFromFileName(name),
      isrc: '',
      distanceLu: null,
      manual: null,
      origin: name,
      trackId,
      mix,
      buffer: null,
      analysis: null,
      load: { status: 'loading' },
    };
    this.#ctx.set({ tracks: [...this.#ctx.state().tracks, track] });
    this.#peers.invalidate();
    const signal = this.#abort.signal;
    void (async () => {
      try {
        const buffer = await decodeAudio(await read(), signal);
        if (signal.aborted) return;
        this.#patch(track.key, { buffer, load: { status: 'analysing' } });
        await this.#analyse(track.key, buffer, signal);
      } catch (error) {
        if (signal.aborted) return;
        const message = error instanceof Error ? error.message : 'Failed to load audio file';
        this.#patch(track.key, { load: { status: 'failed', message } });
      }
    })();
  }

  #analyse(key: string, buffer: AudioBuffer, signal: AbortSignal): Promise<void> {
    const run = this.#queue.then(async () => {
      if (signal.aborted || !this.#find(key)) return;
      const channels = Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c));
      const analysis = await masterClient().analyse(channels, buffer.sampleRate, signal);
      const load: TrackLoad = { status: 'ready' };
      this.#patch(key, { analysis, load });
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #find(key: string): AlbumTrack | undefined {
    return this.#ctx.state().tracks.find((t) => t.key === key);
  }

  #patch(key: string, patch: Partial<AlbumTrack>): void {
    const { tracks } = this.#ctx.state();
    if (!tracks.some((t) => t.key === key)) return;
    this.#ctx.set({ tracks: tracks.map((t) => (t.key === key ? { ...t, ...patch } : t)) });
  }
}
