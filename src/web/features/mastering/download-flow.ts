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
import { spendDevCredit } from './dev-credits';
import { EncoderClient, EXPORT_MESSAGES, type ExportFormat, exportFileName } from './engine-api';
import type { MasterResult } from './mastering-state';
import { NOTICES, type Notice } from './mastering-texts';

let encoder: EncoderClient | null = null;
const encoderClient = () => (encoder ??= new EncoderClient());

export interface DownloadDeps {
  devMode: boolean;
  notify: (notice: Notice) => void;
  onProgress: (fraction: number) => void;
  /** Called with the server's user after a successful spend. */
  onSpent: (user: SpendCreditResponse['user'] | null) => void;
}

const produce = async (result: MasterResult, formats: ExportFormat[], onProgress: (f: number) => void) => {
  const channels = channelsOf(result.buffer).slice(0, 2);
  const rate = result.buffer.sampleRate;
  const files: { format: ExportFormat; blob: Blob }[] = [];
  for (const [i, format] of formats.entries()) {
    const step = (f: number) => onProgress((i + f) / formats.length);
    const blob =
      format === 'wav'
        ? await encoderClient().wav(channels, rate, { dither: true, onProgress: step })
        : await encoderClient().mp3(channels, rate, { bitrate: 320, onProgress: step });
    files.push({ format, blob });
  }
  return files;
};

export const downloadMaster = async (
  result: MasterResult | null,
  formats: ExportFormat[],
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
    files = await produce(result, formats, deps.onProgress);
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
