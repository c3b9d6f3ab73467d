/**
 * The audio engine pieces this screen uses, in one place (all from the engine's public index, except the
 * worker-RPC error classes, which the index does not re-export: the screen tells a crashed worker from a
 * failed render by them).
 */
export {
  ACTIVE_REDUCTION_DB,
  type AdaptivePlan,
  adaptivePlanFor,
  type BandLevel,
  biquadResponseDb,
  buildMasteringChain,
  type ChainDynamics,
  CODEC_LABELS,
  type CodecPreviewReport,
  codecPreviewReport,
  type DynamicsSummary,
  decodeUserAudio,
  EncoderClient,
  EXPORT_MESSAGES,
  ExportError,
  type ExportFormat,
  type ExportRate,
  exportFileName,
  type FoldDown,
  GENRE_TARGETS,
  type GenrePlan,
  LevelMeter,
  type LoudnessReport,
  MasterClient,
  type MasteringChain,
  type MasteringProgress,
  type MasteringReport,
  MasterPairClient,
  MeterClient,
  masteringChainParams,
  masteringStatus,
  octaveMovesDb,
  PLATFORMS,
  type Platform,
  PlatformClient,
  type PlatformId,
  type PlatformPlayback,
  type PreviewCodec,
  pairRenderAvailable,
  platformById,
  platformPlayback,
  platformTable,
  SPOTIFY_LOUD_LIMITER,
  sharedCopiesInSlices,
  suggestGenreFor,
  TONE_EQ_HZ,
  type ToneChoice,
  type TrackAnalysis,
  type TrackGenreSuggestion,
  VOCAL_SPACE_MAX_CUT_DB,
  type VocalClarity,
  type VocalSpaceProfile,
  type VocalSpaceSetting,
  yieldToEventLoop,
} from '../../../../audio';
// Issue 30 (decision 243): a reference's empty top bands, found the way the adaptive plan finds them.
export { referenceBandwidth } from '../../../../audio/dsp/reference-bandwidth';
export { MATCH_HIGH_HZ } from '../../../../audio/dsp/tonal-target';
// Issue 30 (decision 253): the reference's tone against the track's, in words, by its 1/3-octave bands.
export { THIRD_OCTAVE_CENTRES } from '../../../../audio/dsp/track-analysis';
export { RpcRemoteError, WorkerCrashedError } from '../../../../audio/workers/worker-rpc';
