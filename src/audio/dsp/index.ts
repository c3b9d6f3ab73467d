/** Pure DSP kernels and meters (Node-testable): the engine's number crunching. */
export {
  type AdaptivePlan,
  adaptivePlanFor,
  type GenrePlan,
  suggestGenreFor,
  type ToneChoice,
} from './adaptive-plan';
export { ANALYSIS_BANDS, type BandDefinition, type BandLevel, measureBandLevels } from './band-levels';
export {
  BiquadCascade,
  type BiquadCoefficients,
  type BiquadDesign,
  biquadResponseDb,
  designBiquad,
} from './biquad';
export {
  CODEC_LABELS,
  type CodecPreviewReport,
  codecPreviewReport,
  type PreviewCodec,
} from './codec-preview';
export { Compressor, type CompressorParams, compressorParamsFor } from './compressor';
export { floatToInt16, TpdfDither, tpdfDither } from './dither';
export {
  ACTIVE_REDUCTION_DB,
  type ChainDynamics,
  type DynamicsSummary,
} from './dynamics-stats';
export { GENRE_TARGETS, type TrackGenreSuggestion } from './genre-targets';
export { LevelMeter, type LevelReading } from './level-meter';
export { LIMITER_BLOCK, type LimiterOptions, limiterLatency, limitOffline, TruePeakLimiter } from './limiter';
export { LoudnessMeter, type LoudnessReport, measureLoudness } from './loudness';
export {
  MIX_VERSIONS,
  type MixVersion,
  VERSION_GAINS,
  type VersionReport,
  type VersionsResult,
} from './master-versions';
export {
  MASTERING_STAGES,
  type MasteringProgress,
  type MasteringReport,
  type MasteringStage,
  type MasterRenderOptions,
  type RenderControl,
  renderMaster,
} from './mastering-chain';
export { type MasteringChainParams, MasteringProcessor, masteringChainParams } from './mastering-processor';
export { masteringStatus } from './mastering-status';
export { type FoldDown, measureFoldDown } from './mono-fold-down';
export {
  PLATFORMS,
  type Platform,
  type PlatformId,
  type PlatformPlayback,
  platformById,
  platformPlayback,
  platformTable,
  SPOTIFY_LOUD_LIMITER,
} from './platform-loudness';
export { applyStereoWidth } from './stereo-width';
export { octaveMovesDb, TONE_EQ_HZ } from './tone-eq';
export { analyseTrack, type StereoBand, type TrackAnalysis } from './track-analysis';
export { dbToLinear, linearToDb, measureTruePeakDb, TruePeakMeter } from './true-peak';
export { measureVocalClarity, type VocalBandRatio, type VocalClarity } from './vocal-clarity';
export {
  analyseVocalSpace,
  carveBeat,
  MAX_CUT_DB as VOCAL_SPACE_MAX_CUT_DB,
  VocalSpaceProcessor,
  type VocalSpaceProfile,
} from './vocal-space';
