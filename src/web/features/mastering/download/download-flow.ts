/**
 * A download, in the order the spec gives (section 4): the files are produced first, then one credit or
 * crown is spent on the server (once, whatever the number of formats, with an idempotency key so a
 * retried request spends once), and only then are the files handed to the browser. A refused spend saves
 * nothing. Issue 18: a mixer mix's master has versions; every chosen version in every chosen format is
 * made, the files are packed into one ZIP in the ZIP worker, and the one spend records what it delivered.
 */

import { ZipClient } from '../../../../audio';
import type { SpendCreditResponse } from '../../../../shared/api/billing';
import type { MasterMeta } from '../../../../shared/api/library';
import { MIX_VERSIONS, type MixVersion } from '../../../../shared/mix-versions';
import { userMessage } from '../../../lib/api-client';
import { saveFile } from '../../../lib/save-file';
import { spendCredit } from '../../../lib/spend-credit';
import { keepMaster } from '../../library/library-api';
import { spendDevCredit } from '../credits/dev-credits';
import { channelsOf } from '../engine/audio-decode';
import { copyChannels } from '../engine/chunked-copy';
import {
  EncoderClient,
  EXPORT_MESSAGES,
  type ExportFormat,
  type ExportRate,
  exportFileName,
} from '../engine/engine-api';
import type { MasterResult } from '../mastering-state';
import { NOTICES, type Notice } from '../mastering-texts';
import { deliversZip, fileVersionName } from './delivery';

let encoder: EncoderClient | null = null;
/** The encoder workers, shared with the codec preview (one MP3 encoder per page). */
export const encoderClient = () => (encoder ??= new EncoderClient());
let zipper: ZipClient | null = null;
const zipClient = () => (zipper ??= new ZipClient());

/** What the progress is about: making the files, then packing them into the ZIP. */
export type DownloadPhase = 'encoding' | 'zipping';

export interface DownloadDeps {
  devMode: boolean;
  notify: (notice: Notice) => void;
  onProgress: (fraction: number, phase: DownloadPhase) => void;
  /** Cancels the download before the spend (encoding or packing). */
  signal?: AbortSignal;
  /** The saved track the master is of (issue 29: its spend names it); null for a file never saved. */
  trackId: number | null;
  /** Called with the server's user after a successful spend. */
  onSpent: (user: SpendCreditResponse['user'] | null) => void;
  /** Issue 30: how the master was made, kept with its files in the library after a paid download. */
  keep?: MasterMeta;
}

/** One format's file from channels at `rate` (the album's delivery makes its files with it too). */
export const encode = async (
  format: ExportFormat,
  channels: Float32Array[],
  rate: number,
  onProgress: (f: number) => void,
) => {
  const client = encoderClient();
  const job = { onProgress, transfer: true };
  // Copied in slices (a 10-minute master is 230 MB: one synchronous copy would freeze the page), then
  // moved, not cloned, to the worker.
  const copies = await copyChannels(channels);
  switch (format) {
    case 'wav':
      return client.wav(copies, rate, { ...job, dither: true });
    case 'mp3':
      // Issue 28: at the WAV's loudness, under the ceiling after decoding (decision 217).
      return client.mp3(copies, rate, { ...job, bitrate: 320, sameLoudness: true });
    case 'wav24':
      return client.wav(copies, rate, { ...job, encoding: 'int24', dither: true });
    case 'wav32f':
      return client.wav(copies, rate, { ...job, encoding: 'float32' });
    case 'flac16':
      return client.flac(copies, rate, { ...job, bits: 16, dither: true });
    case 'flac24':
      return client.flac(copies, rate, { ...job, bits: 24, dither: true });
  }
};

/**
 * Every chosen format's file. At a rate other than the source's the master is resampled once (in the
 * worker), and every format is made from that.
 */
const produce = async (
  source: { channels: Float32Array[]; sampleRate: number },
  formats: ExportFormat[],
  rate: ExportRate,
  onProgress: (f: number) => void,
) => {
  let channels = source.channels.slice(0, 2);
  const sourceRate = source.sampleRate;
  const target = rate === 'source' ? sourceRate : rate;
  const steps = formats.length + (target === sourceRate ? 0 : 1);
  let step = 0;
  const at = (f: number) => onProgress((step + f) / steps);
  if (target !== sourceRate) {
    channels = await encoderClient().resample(await copyChannels(channels), sourceRate, target, {
      onProgress: at,
      transfer: true,
    });
    step++;
  }
  const files: { format: ExportFormat; blob: Blob }[] = [];
  for (const format of formats) {
    files.push({ format, blob: await encode(format, channels, target, at) });
    step++;
  }
  return files;
};

interface MadeFile {
  version: MixVersion | null;
  format: ExportFormat;
  blob: Blob;
}

/** Every chosen version (or the master alone) in every chosen format. */
const produceAll = async (
  result: MasterResult,
  versions: readonly MixVersion[],
  formats: ExportFormat[],
  rate: ExportRate,
  onProgress: (f: number) => void,
): Promise<MadeFile[]> => {
  const made = result.versions;
  if (!made || versions.length === 0) {
    const source = { channels: channelsOf(result.buffer), sampleRate: result.buffer.sampleRate };
    return (await produce(source, formats, rate, onProgress)).map((f) => ({ ...f, version: null }));
  }
  const files: MadeFile[] = [];
  for (const [index, version] of versions.entries()) {
    const channels = made.channels[version];
    if (!channels) throw new Error(EXPORT_MESSAGES.emptyBuffer);
    const at = (f: number) => onProgress((index + f) / versions.length);
    for (const file of await produce({ channels, sampleRate: made.sampleRate }, formats, rate, at))
      files.push({ ...file, version });
  }
  return files;
};

export const downloadMaster = async (
  result: MasterResult | null,
  formats: ExportFormat[],
  rate: ExportRate,
  deps: DownloadDeps,
  /** Issue 18: the versions to deliver (a master with versions); empty or absent: the master alone. */
  chosenVersions: readonly MixVersion[] = [],
): Promise<boolean> => {
  if (!result) {
    deps.notify(NOTICES.downloadNoTrack);
    return false;
  }
  const versions = result.versions ? MIX_VERSIONS.filter((v) => chosenVersions.includes(v)) : [];
  if (result.buffer.length === 0 || formats.length === 0 || (result.versions && versions.length === 0)) {
    deps.notify(NOTICES.downloadNotReady);
    return false;
  }
  const timestamp = Date.now();
  const spendKey = crypto.randomUUID();
  const nameOf = (file: MadeFile) =>
    exportFileName(file.format, {
      kind: 'master',
      preset: result.key,
      timestamp,
      version: fileVersionName(file.version, versions.length),
    });
  let handOver: { blob: Blob; name: string }[];
  try {
    const files = await produceAll(result, versions, formats, rate, (f) => deps.onProgress(f, 'encoding'));
    deps.signal?.throwIfAborted();
    // More than one version comes as one ZIP; one version (or none) as its files, one per format (spec 8:
    // 'mastered-{preset}-{timestamp}.wav' and '.mp3'; issue 30).
    if (deliversZip(versions.length)) {
      const entries = files.map((file) => ({ name: nameOf(file), blob: file.blob }));
      const zip = await zipClient().zip(entries, {
        signal: deps.signal,
        onProgress: (f) => deps.onProgress(f, 'zipping'),
      });
      handOver = [{ blob: zip, name: `mastered-${result.key}-${timestamp}.zip` }];
    } else {
      handOver = files.map((file) => ({ blob: file.blob, name: nameOf(file) }));
    }
  } catch (error) {
    if (deps.signal?.aborted) return false;
    const message = error instanceof Error ? error.message : '';
    const known = (Object.values(EXPORT_MESSAGES) as string[]).includes(message);
    deps.notify(NOTICES.downloadFailed(known ? message : undefined));
    return false;
  }
  if (deps.devMode) {
    // Developer mode: the local store counts, the server is not asked (spec 4).
    spendDevCredit();
    deps.onSpent(null);
  } else {
    try {
      const track = deps.trackId === null ? {} : { trackId: deps.trackId };
      // The formats are recorded with every spend (issue 30: the library re-downloads just those).
      const delivered =
        versions.length > 0 ? { versions: [...versions], formats, ...track } : { formats, ...track };
      const res = await spendCredit('mastering', delivered, spendKey);
      if (!res.success) {
        deps.notify(NOTICES.creditError(res.message));
        return false;
      }
      deps.onSpent(res.user);
    } catch (error) {
      deps.notify(NOTICES.creditError(userMessage(error, 'Failed to process credit')));
      return false;
    }
  }
  for (const file of handOver) await saveFile(file.blob, file.name);
  deps.notify(NOTICES.downloadStarted(handOver.map((f) => f.name)));
  // Issue 30: the very files handed over are kept with their spend, so the library can give them again
  // for 30 days without a charge (decision 226). The download has happened either way.
  if (!deps.devMode && deps.keep)
    keepMaster(spendKey, deps.keep, handOver).catch((error: unknown) =>
      deps.notify(NOTICES.keepFailed(userMessage(error, 'Not kept in your library'))),
    );
  return true;
};
