/**
 * The audio engine pieces this screen uses, in one place (all from the engine's public index, except the
 * worker-RPC error classes, which the index does not re-export: the screen tells a crashed worker from a
 * failed render by them).
 */
export {
  ACTIVE_REDUCTION_DB,
  type AdaptivePlan,
  type BandLevel,
  biquadResponseDb,
  buildMasteringChain,
  type ChainDynamics,
  type DynamicsSummary,
  decodeUserAudio,
  EncoderClient,
  EXPORT_MESSAGES,
  ExportError,
  type ExportFormat,
  type ExportRate,
  exportFileName,
  type FoldDown,
  LevelMeter,
  type LoudnessReport,
  MasterClient,
  type MasteringChain,
  type MasteringProgress,
  type MasteringReport,
  MeterClient,
  masteringChainParams,
  masteringStatus,
  octaveMovesDb,
  PLATFORMS,
  type Platform,
  type PlatformId,
  type PlatformPlayback,
  platformById,
  platformTable,
  SPOTIFY_LOUD_LIMITER,
  TONE_EQ_HZ,
  type ToneChoice,
  type TrackAnalysis,
  yieldToEventLoop,
} from '../../../audio';
export { RpcRemoteError, WorkerCrashedError } from '../../../audio/workers/worker-rpc';
