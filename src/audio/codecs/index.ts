export * from './export-errors';
export * from './export-formats';
export * from './mp3-encoder';
export * from './wav-decoder';
export * from './wav-encoder';
