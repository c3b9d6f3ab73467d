import type { MixClient, PeakLevel, PeaksClient, TrackType } from '../../../../audio';
import { toast } from '../../../components/ui/use-toast';
import { userMessage } from '../../../lib/api-client';
import { afterPaint, pageCores } from '../../../lib/core-budget';
import { readAndDecode, TrackLoadError, withTimeout } from '../../../lib/read-and-decode';
import { ProgressMeter } from '../../../lib/upload-progress';
import { clearedSlot, type FlowState, isBusy, type Store, type TrackUpload } from '../flow-state';
import { MIXER_NOTICES, MIXER_TIMEOUTS, type Notice, processingLabel } from '../mixer-messages';
import { copyForTransfer } from './audio-buffers';
import { uploadTrack } from './track-api';
import { uploadProblem } from './upload-rules';

export interface LoadedTrack {
  buffer: AudioBuffer;
  peaks: PeakLevel[];
}

interface LoaderDeps {
  store: Store<FlowState>;
  mix: MixClient;
  peaks: PeaksClient;
  /** The playback context's rate: decoding falls back to it when a file's own rate cannot be read. */
  fallbackRate: () => number;
  /** `savedId`: the track's id when it came from a saved session (null for a file the user chose). */
  onLoaded: (type: TrackType, track: LoadedTrack, savedId: number | null) => void;
  onCleared: (type: TrackType) => void;
}

const showError = (notice: Notice) => toast({ ...notice, variant: 'destructive' });

/**
 * Upload boxes' processing (spec 4): one track is processed at a time; a second file of the same type while
 * that type is busy is refused; a file for the other type waits its turn. Each file is read, decoded at its
 * own rate, measured for waveforms and handed to the mix worker, within the spec's time-outs; a failed track
 * is cleared. The original file is also saved through POST /api/tracks, whose failure is only logged.
 */
export class TrackLoader {
  readonly #d: LoaderDeps;
  #queue: { type: TrackType; file: File; savedId: number | null }[] = [];
  #active: TrackType | null = null;
  /** The file being (or last) saved per type and its cancel switch: a retry sends the same file again. */
  #saves: Record<TrackType, { file: File; generation: number; stop: AbortController } | null> = {
    vocals: null,
    instrumental: null,
  };
  /** Bumped per accepted file, so the result of a timed-out decode that finishes late is ignored. */
  #generation: Record<TrackType, number> = { vocals: 0, instrumental: 0 };

  constructor(deps: LoaderDeps) {
    this.#d = deps;
  }

  /** A file the user chose; `savedId` marks one restored from a saved session (already on the server). */
  upload(type: TrackType, file: File, savedId: number | null = null): void {
    const problem = uploadProblem(file);
    if (problem) return void showError(problem);
    const slots = this.#d.store.getState().tracks;
    if (isBusy(slots[type])) return void showError(MIXER_NOTICES.busy(type));
    const waits = this.#active !== null;
    this.#generation[type] += 1;
    this.#saves[type]?.stop.abort(); // the replaced file's save is of no use any more
    this.#setSlot(type, (s) => ({ ...s, status: waits ? 'queued' : 'processing', fileName: file.name }));
    toast({
      title: processingLabel(type),
      description: waits ? MIXER_NOTICES.queued : MIXER_NOTICES.starting,
      duration: MIXER_TIMEOUTS.processingToast,
    });
    this.#queue.push({ type, file, savedId });
    if (!waits) void this.#next();
  }

  async #next(): Promise<void> {
    const job = this.#queue.shift();
    if (!job) {
      this.#active = null;
      return;
    }
    this.#active = job.type;
    await this.#process(job.type, job.file, job.savedId);
    void this.#next();
  }

  async #process(type: TrackType, file: File, savedId: number | null): Promise<void> {
    const generation = this.#generation[type];
    this.#setSlot(type, (s) => ({ ...s, status: 'processing' }));
    try {
      const decode = readAndDecode(file, this.#d.fallbackRate());
      await withTimeout(decode.read, MIXER_TIMEOUTS.fileRead, () => {
        decode.cancel();
        return new TrackLoadError('File reading timed out');
      });
      // User Timing marks: the long-task spec and DevTools line main-thread work up with these steps.
      performance.mark(`mixer:${type}:read`);
      // The user waits for the track to show: from its decoding until the loaded track is drawn it is a
      // foreground job (lib/core-budget), so the other track's analyses hold meanwhile and this track's own
      // (started by onLoaded) begin after the page has drawn it.
      const loaded = await pageCores.foreground(async () => {
        const track = await withTimeout(
          this.#prepare(type, decode.audio),
          MIXER_TIMEOUTS.process[type],
          () => new TrackLoadError(MIXER_NOTICES.processTimeout(type).description ?? ''),
        );
        if (generation !== this.#generation[type]) return false;
        this.#d.onLoaded(type, track, savedId);
        this.#setSlot(type, (s) => ({
          ...s,
          status: 'loaded',
          durationSeconds: track.buffer.duration,
          fileRate: track.buffer.sampleRate,
          peaks: track.peaks,
          trackId: savedId,
        }));
        await afterPaint();
        return true;
      });
      if (!loaded) return;
      toast({ ...MIXER_NOTICES.processingComplete, description: `${file.name} is ready` });
      if (savedId === null) this.#save(type, file, generation);
    } catch (error) {
      if (generation !== this.#generation[type]) return;
      console.warn(`The ${type} track could not be processed`, error);
      this.clear(type);
      showError(
        error instanceof TrackLoadError
          ? { title: 'Processing Error', description: error.message }
          : MIXER_NOTICES.processingFailed(type),
      );
    }
  }

  async #prepare(type: TrackType, audio: Promise<AudioBuffer>): Promise<LoadedTrack> {
    const buffer = await audio;
    performance.mark(`mixer:${type}:decoded`);
    const channels = Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c));
    const [peaks] = await Promise.all([
      copyForTransfer(channels).then((copies) => this.#d.peaks.peaks(copies, { transfer: true })),
      this.#d.mix.setSource(type, channels, buffer.sampleRate),
    ]);
    performance.mark(`mixer:${type}:handed-over`);
    return { buffer, peaks };
  }

  /**
   * Saving the input for later sessions (spec 7: a failure is only logged, never a toast). Its progress
   * (bytes, speed, time left) shows in the upload box, which offers Cancel, and Retry after a failure or a
   * cancel, with the same file.
   */
  #save(type: TrackType, file: File, generation: number): void {
    this.#saves[type]?.stop.abort();
    const stop = new AbortController();
    this.#saves[type] = { file, generation, stop };
    const current = () => generation === this.#generation[type] && this.#saves[type]?.stop === stop;
    const meter = new ProgressMeter(file.size);
    this.#setUpload(type, { status: 'uploading', progress: meter.sample(0, performance.now()) });
    uploadTrack(file, file.name, type, file.name, {
      signal: stop.signal,
      onProgress: (sent) => {
        if (current())
          this.#setUpload(type, { status: 'uploading', progress: meter.sample(sent, performance.now()) });
      },
    }).then(
      ({ id }) => {
        if (current()) this.#setSlot(type, (s) => ({ ...s, trackId: id, upload: { status: 'saved' } }));
      },
      (error: unknown) => {
        if (!current()) return;
        if (stop.signal.aborted) return this.#setUpload(type, { status: 'cancelled' });
        console.warn(`Saving the ${type} track failed`, error);
        this.#setUpload(type, { status: 'failed', message: userMessage(error, 'Upload failed') });
      },
    );
  }

  /** Stops the save in flight (the server keeps nothing of a cut-off upload). */
  cancelUpload(type: TrackType): void {
    this.#saves[type]?.stop.abort();
  }

  /** Sends the same file again after a failure or a cancel, without choosing it again. */
  retryUpload(type: TrackType): void {
    const save = this.#saves[type];
    const status = this.#d.store.getState().tracks[type].upload?.status;
    if (
      !save ||
      save.generation !== this.#generation[type] ||
      (status !== 'failed' && status !== 'cancelled')
    )
      return;
    this.#save(type, save.file, save.generation);
  }

  #setUpload(type: TrackType, upload: TrackUpload): void {
    this.#setSlot(type, (s) => ({ ...s, upload }));
  }

  /** The track is gone (failed, or replaced by nothing): its slot, engine lane and worker copy are cleared. */
  clear(type: TrackType): void {
    this.#saves[type]?.stop.abort();
    this.#saves[type] = null;
    this.#setSlot(type, (s) => clearedSlot(s, type));
    void this.#d.mix.setSource(type, null, 0).catch((e: unknown) => console.warn(e));
    this.#d.onCleared(type);
  }

  #setSlot(type: TrackType, fn: (s: FlowState['tracks'][TrackType]) => FlowState['tracks'][TrackType]) {
    this.#d.store.update((s) => ({ ...s, tracks: { ...s.tracks, [type]: fn(s.tracks[type]) } }));
  }
}
