/**
 * A download, in the order the spec gives (section 4): the files are produced first, then one credit or
 * crown is spent on the server (once, whatever the number of formats, with an idempotency key so a
 * retried request spends once), and only then are the files handed to the browser. A refused spend saves
 * nothing.
 */
import type { SpendCreditResponse } from '../../../shared/api/billing';
import { userMessage } from '../../lib/api-client';
import { saveFile } from '../../lib/save-file';
import { spendCredit } from '../../lib/spend-credit';
import { channelsOf } from './audio-decode';
import { copyChannels } from './chunked-copy';
import { spendDevCredit } from './dev-credits';
import {
  EncoderClient,
  EXPORT_MESSAGES,
  type ExportFormat,
  type ExportRate,
  exportFileName,
} from './engine-api';
import type { MasterResult } from './mastering-state';
import { NOTICES, type Notice } from './mastering-texts';

let encoder: EncoderClient | null = null;
/** The encoder workers, shared with the codec preview (one MP3 encoder per page). */
export const encoderClient = () => (encoder ??= new EncoderClient());

export interface DownloadDeps {
  devMode: boolean;
  notify: (notice: Notice) => void;
  onProgress: (fraction: number) => void;
  /** Called with the server's user after a successful spend. */
  onSpent: (user: SpendCreditResponse['user'] | null) => void;
}

/** One format's file from channels at `rate`. */
const encode = async (
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
      return client.mp3(copies, rate, { ...job, bitrate: 320 });
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
  result: MasterResult,
  formats: ExportFormat[],
  rate: ExportRate,
  onProgress: (f: number) => void,
) => {
  let channels = channelsOf(result.buffer).slice(0, 2);
  const source = result.buffer.sampleRate;
  const target = rate === 'source' ? source : rate;
  const steps = formats.length + (target === source ? 0 : 1);
  let step = 0;
  const at = (f: number) => onProgress((step + f) / steps);
  if (target !== source) {
    channels = await encoderClient().resample(await copyChannels(channels), source, target, {
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

export const downloadMaster = async (
  result: MasterResult | null,
  formats: ExportFormat[],
  rate: ExportRate,
  deps: DownloadDeps,
): Promise<boolean> => {
  if (!result) {
    deps.notify(NOTICES.downloadNoTrack);
    return false;
  }
  if (result.buffer.length === 0 || formats.length === 0) {
    deps.notify(NOTICES.downloadNotReady);
    return false;
  }
  let files: { format: ExportFormat; blob: Blob }[];
  try {
    files = await produce(result, formats, rate, deps.onProgress);
  } catch (error) {
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
      const res = await spendCredit('mastering');
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
  const timestamp = Date.now();
  const names = files.map(({ format, blob }) => {
    const name = exportFileName(format, { kind: 'master', preset: result.key, timestamp });
    saveFile(blob, name);
    return name;
  });
  deps.notify(NOTICES.downloadStarted(names));
  return true;
};
