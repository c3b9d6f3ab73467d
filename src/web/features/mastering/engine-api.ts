/**
 * The audio engine pieces this screen uses, in one place (all from the engine's public index, except the
 * worker-RPC error classes, which the index does not re-export: the screen tells a crashed worker from a
 * failed render by them).
 */
export {
  type AdaptivePlan,
  adaptivePlanFor,
  type BandLevel,
  buildMasteringChain,
  decodeUserAudio,
  EncoderClient,
  EXPORT_MESSAGES,
  ExportError,
  type ExportFormat,
  type ExportRate,
  exportFileName,
  LevelMeter,
  type LoudnessReport,
  MasterClient,
  type MasteringChain,
  type MasteringProgress,
  type MasteringReport,
  MasterPairClient,
  MeterClient,
  masteringStatus,
  octaveMovesDb,
  pairRenderAvailable,
  TONE_EQ_HZ,
  type ToneChoice,
  type TrackAnalysis,
  yieldToEventLoop,
} from '../../../audio';
export { RpcRemoteError, WorkerCrashedError } from '../../../audio/workers/worker-rpc';
