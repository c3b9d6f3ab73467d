/**
 * The album download (issue 31 items 4 and 5), in the single page's order: the files are made first, then
 * the album is charged once on the server (POST /api/spend-album: one idempotency key for the whole
 * download, one mastering credit or crown per track), and only then is the ZIP handed over. A refused spend
 * saves nothing; previews never reach this.
 */
import { ZipClient } from '../../../../audio';
import type { MasterMeta } from '../../../../shared/api/library';
import { GENRE_LABELS } from '../../../../shared/genres';
import type { MixVersion } from '../../../../shared/mix-versions';
import { apiJson, userMessage } from '../../../lib/api-client';
import { saveFile } from '../../../lib/save-file';
import { keepMaster } from '../../library/library-api';
import { spendDevCredit } from '../credits/dev-credits';
import { EXPORT_MESSAGES, type ExportFormat } from '../engine/engine-api';
import { PRESETS } from '../mastering-constants';
import { NOTICES } from '../mastering-texts';
import type { SpendAlbumBody, SpendAlbumResponse } from './album-engine';
import { makeAlbumFiles, safeName, versionsOf } from './album-files';
import { sequenceOptions } from './album-player';
import { canMakeAlbum, canPayFor, isrcFieldOk } from './album-rules';
import { type AlbumState, allMastered } from './album-state';
import type { AlbumContext } from './album-store';
import { ALBUM_NOTICES } from './album-texts';

let zipper: ZipClient | null = null;
const zipClient = () => (zipper ??= new ZipClient());

export interface AlbumDownloadChoice {
  formats: ExportFormat[];
  continuous: 'wav' | 'flac16' | null;
  /** The mixes' versions besides their Main (issue 18); empty: the record's tracks alone. */
  versions: MixVersion[];
}

/**
 * How the library shows the kept album (shown again, never used to charge): the preset and genre, and each
 * track's planned and measured loudness.
 */
export const keptMeta = (state: AlbumState, record: string, choice: AlbumDownloadChoice): MasterMeta => ({
  name: record,
  preset: PRESETS[state.preset].name,
  genre: state.plan ? GENRE_LABELS[state.plan.genre] : null,
  referenceName: null,
  settings: {},
  figures: {
    tracks: state.tracks.length,
    formats: choice.formats.join(', '),
    continuous:
      choice.continuous === null ? 'none' : choice.continuous === 'wav' ? 'WAV 16-bit' : 'FLAC 16-bit',
    ...Object.fromEntries(
      state.tracks.map((t, i) => {
        const m = state.masters[t.key];
        const measured = m?.measuredLufs == null ? '' : `, measured ${m.measuredLufs.toFixed(1)}`;
        return [
          `${i + 1}. ${t.title.trim() || 'Untitled'}`.slice(0, 60),
          m ? `${m.targetLufs.toFixed(1)} LUFS${measured}` : null,
        ];
      }),
    ),
  },
});

export class AlbumDownloadController {
  #ctx: AlbumContext;
  #job: AbortController | null = null;

  constructor(ctx: AlbumContext) {
    this.#ctx = ctx;
  }

  /** Why the album cannot be downloaded now, as a notice; null when it can. */
  check(formats: readonly ExportFormat[]) {
    const state = this.#ctx.state();
    const user = this.#ctx.deps.user();
    if (!user) return NOTICES.downloadNoTrack;
    if (!canMakeAlbum(user)) return ALBUM_NOTICES.planRequired;
    if (!allMastered(state)) return ALBUM_NOTICES.notMastered;
    if (formats.length === 0) return ALBUM_NOTICES.noFormat;
    if (state.tracks.some((t) => !isrcFieldOk(t.isrc))) return ALBUM_NOTICES.badIsrc;
    if (!this.#ctx.deps.devMode() && !canPayFor(state.tracks.length, user)) return ALBUM_NOTICES.noCredits;
    return null;
  }

  async download(choice: AlbumDownloadChoice): Promise<boolean> {
    const refused = this.check(choice.formats);
    if (refused) {
      this.#ctx.deps.notify(refused);
      return false;
    }
    const state = this.#ctx.state();
    this.abort();
    const controller = new AbortController();
    this.#job = controller;
    const progress = (percent: number, phase: 'encoding' | 'zipping' | 'charging') =>
      this.#ctx.set({ download: { running: true, percent: Math.round(percent), phase } });
    progress(0, 'encoding');
    const record = state.record.trim() || 'Untitled album';
    const timestamp = Date.now();
    let zip: Blob;
    try {
      const tracks = state.tracks.map((t) => ({
        title: t.title,
        isrc: t.isrc,
        buffer: state.masters[t.key]!.buffer,
        versions: state.masters[t.key]!.versions,
      }));
      const files = await makeAlbumFiles(
        tracks,
        {
          record,
          artist: state.artist,
          formats: choice.formats,
          continuous: choice.continuous,
          sequence: sequenceOptions(state),
          versions: choice.versions,
        },
        (f) => progress(f * 90, 'encoding'),
        controller.signal,
      );
      zip = await zipClient().zip(files, {
        signal: controller.signal,
        onProgress: (f) => progress(90 + f * 9, 'zipping'),
      });
    } catch (error) {
      this.#ctx.set({ download: null });
      if (controller.signal.aborted) return false;
      const message = error instanceof Error ? error.message : '';
      const known = (Object.values(EXPORT_MESSAGES) as string[]).includes(message);
      this.#ctx.deps.notify(NOTICES.downloadFailed(known ? message : undefined));
      return false;
    }
    progress(99, 'charging');
    const spendKey = crypto.randomUUID();
    const paid = state.tracks.map((t) => ({
      trackId: t.trackId,
      title: t.title,
      versions: versionsOf(state.masters[t.key]!, choice.versions),
    }));
    if (!(await this.#spend(spendKey, paid, record, choice))) {
      this.#ctx.set({ download: null });
      return false;
    }
    const name = `${safeName(record)}-${timestamp}.zip`;
    await saveFile(zip, name);
    this.#ctx.set({ download: null });
    this.#ctx.deps.notify(NOTICES.downloadStarted([name]));
    // Decision 226: the very ZIP handed over is kept with its spend, so the library gives it again for 30
    // days without a charge. The server reads what was paid from the spend; the download has happened either way.
    if (!this.#ctx.deps.devMode())
      keepMaster(spendKey, keptMeta(state, record, choice), [{ blob: zip, name }]).catch((error: unknown) =>
        this.#ctx.deps.notify(NOTICES.keepFailed(userMessage(error, 'Not kept in your library'))),
      );
    return true;
  }

  /** The one charge for the whole album (developer mode: the local store, one per track). */
  async #spend(
    idempotencyKey: string,
    tracks: readonly { trackId: number | null; title: string; versions: readonly MixVersion[] }[],
    record: string,
    choice: AlbumDownloadChoice,
  ): Promise<boolean> {
    if (this.#ctx.deps.devMode()) {
      for (const _ of tracks) spendDevCredit();
      return true;
    }
    const body: SpendAlbumBody = {
      idempotencyKey,
      album: {
        name: record,
        tracks: tracks.map((t) => ({
          ...(t.trackId === null ? {} : { trackId: t.trackId }),
          title: t.title.trim() || 'Untitled',
          // What was delivered besides the Main is recorded with the spend (no extra charge).
          ...(t.versions.length > 0 ? { versions: [...t.versions] } : {}),
        })),
        formats: choice.formats,
        continuous: choice.continuous !== null,
      },
    };
    try {
      const res = await apiJson<SpendAlbumResponse>('POST', '/api/spend-album', body);
      if (!res.success) {
        this.#ctx.deps.notify(NOTICES.creditError(res.message));
        return false;
      }
      await this.#ctx.deps.refreshUser().catch(() => null);
      return true;
    } catch (error) {
      this.#ctx.deps.notify(NOTICES.creditError(userMessage(error, 'Failed to process credit')));
      return false;
    }
  }

  cancel(): void {
    this.abort();
    this.#ctx.set({ download: null });
  }

  abort(): void {
    this.#job?.abort();
    this.#job = null;
  }
}
