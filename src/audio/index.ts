/**
 * The audio engine's public face. React and the rest of the app import from here only.
 * Each sub-folder exposes its own index; this file gathers them.
 */

// Issue 31, album mastering: the album page's engine (plan, sequence, CUE, tags).
export * from './album/album-api';
export * from './codecs/export-errors';
export * from './codecs/export-formats';
export { decodeUserAudio, studioInputRate } from './codecs/input-formats';
export * from './dsp';
export type { BeatFeatures, GenreReason, GenreSuggestion } from './dsp/genre-suggest';
// Issue 26, the mixer's listening (the beat's genre, the vocal's analysis) and the vocal targets it reads.
export { CLOSE_CALL_DB } from './dsp/genre-suggest';
export type { PeakLevel } from './dsp/peaks';
export { scalePitchClasses } from './dsp/pitch/correction-curve';
export type { BalanceFinding, VocalAnalysis } from './dsp/vocal/analyse-vocal';
export { BALANCE_BANDS, type BalanceBand, vocalTargetFor } from './dsp/vocal/genre-vocal-targets';
export type { VocalChainAmounts, VocalChainReport, VocalChainStage } from './dsp/vocal/vocal-chain';
export { VOCAL_CHAIN_STAGES } from './dsp/vocal/vocal-chain';
export * from './engine';
export { yieldToEventLoop } from './event-loop';
export * from './graph';
export * from './model';
export * from './render/master-render';
export type { MixRenderSettings, MixReport, MixStems, StemLoudness } from './render/mix-render';
export * from './render/mix-stages';
export { type EncodeJobOptions, EncoderClient } from './workers/encode-client';
export { ListenClient } from './workers/listen-client';
export { MasterClient, type MasterJob } from './workers/master-client';
export { MasterPairClient, pairRenderAvailable, sharedCopiesInSlices } from './workers/master-pair-client';
export { MeterClient } from './workers/meter-client';
export { MixClient } from './workers/mix-client';
export type { MixTimeline, PitchCurveView, RenderedMix, RenderedPreview } from './workers/mix-protocol';
export { PeaksClient } from './workers/peaks-client';
export { PlatformClient } from './workers/platform-client';
export { SongFactsClient } from './workers/song-facts-client';
export { ZipClient } from './workers/zip-client';
export type { ZipEntry } from './workers/zip-protocol';
