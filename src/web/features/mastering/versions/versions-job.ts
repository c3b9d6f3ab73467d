/**
 * Issue 18: 'Master Track' for a mixer mix whose stems are loaded. The master worker masters the Main from
 * the stems with its gains recorded and every version with the same gains (decision 150); the Main becomes
 * the playable master as in any other job, and the versions wait for the download.
 */
import type { VersionsResult } from '../../../../audio';
import { MIX_VERSIONS } from '../../../../shared/mix-versions';
import { copyChannels } from '../engine/chunked-copy';
import { type MasteringProgress, masteringStatus } from '../engine/engine-api';
import { type JobOutput, type MasterJobSpec, masterClient, outputOf } from '../engine/master-job';
import type { JobStatus } from '../mastering-state';
import type { LoadedStems } from '../source/mix-stems';

/** The versions of one master, ready to encode (the worker's answer without the Main's report). */
export type VersionsOutput = Omit<VersionsResult, 'report'> & { sampleRate: number };

export const runVersionsJob = async (
  stems: LoadedStems,
  job: MasterJobSpec,
  onStatus: (status: JobStatus) => void,
  signal: AbortSignal,
): Promise<JobOutput & { versions: VersionsOutput }> => {
  let message = masteringStatus('analysing', job.name).message;
  onStatus({ percent: 0, message, running: true });
  // The stems stay on the page for the next master: the worker gets copies, moved over.
  const vocals = await copyChannels(stems.vocals, signal);
  const instrumental = await copyChannels(stems.instrumental, signal);
  const rendered = await masterClient().versions(
    { vocals, instrumental },
    [...MIX_VERSIONS],
    stems.sampleRate,
    {
      settings: job.settings,
      targetLufs: job.targetLufs,
      tone: job.tone,
      signal,
      onProgress: (p: MasteringProgress) => {
        message = masteringStatus(p.stage, job.name).message;
        onStatus({ percent: Math.round(p.fraction * 99), message, running: true });
      },
    },
  );
  const main = rendered.channels.main!;
  // The Main's channels stay here for its download: the meter works on a copy.
  const output = await outputOf(main, stems.sampleRate, rendered.report, signal, false);
  return {
    ...output,
    versions: {
      sampleRate: stems.sampleRate,
      channels: rendered.channels,
      versions: rendered.versions,
      residualDb: rendered.residualDb,
    },
  };
};
