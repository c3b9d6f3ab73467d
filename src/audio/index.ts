/**
 * The audio engine's public face. React and the rest of the app import from here only.
 * Each sub-folder exposes its own index; this file gathers them.
 */
export {};
export * from './codecs/export-errors';
export * from './codecs/export-formats';
export * from './engine';
export * from './model';
export { EncoderClient, type EncodeJobOptions } from './workers/encode-client';
export { PeaksClient } from './workers/peaks-client';
export type { PeakLevel } from './dsp/peaks';
