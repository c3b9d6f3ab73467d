/**
 * The audio engine's public face. React and the rest of the app import from here only.
 * Each sub-folder exposes its own index; this file gathers them.
 */

export * from './codecs/export-errors';
export * from './codecs/export-formats';
export * from './dsp';
export type { PeakLevel } from './dsp/peaks';
export * from './engine';
export * from './model';
export type { MixRenderSettings, MixReport, StemLoudness } from './render/mix-render';
export * from './render/mix-stages';
export { type EncodeJobOptions, EncoderClient } from './workers/encode-client';
export { MixClient } from './workers/mix-client';
export type { MixTimeline, RenderedMix, RenderedPreview } from './workers/mix-protocol';
export { PeaksClient } from './workers/peaks-client';
