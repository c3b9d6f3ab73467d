/**
 * The audio engine pieces this screen uses, in one place. The master/meter workers and the mastering graph
 * builder were landing while this screen was written and are not yet re-exported by src/audio/index.ts, so
 * they are imported from their modules here; once the index exports them, only this file changes.
 */
export {
  type BandLevel,
  EncoderClient,
  EXPORT_MESSAGES,
  ExportError,
  type ExportFormat,
  exportFileName,
  LevelMeter,
  type LoudnessReport,
  type MasteringProgress,
  type MasteringReport,
  masteringStatus,
} from '../../../audio';
export { buildMasteringChain, type MasteringChain } from '../../../audio/graph';
export { MasterClient } from '../../../audio/workers/master-client';
export { MeterClient } from '../../../audio/workers/meter-client';
export { RpcRemoteError, WorkerCrashedError } from '../../../audio/workers/worker-rpc';
