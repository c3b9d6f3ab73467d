export * from './mixer-engine';
export * from './mixer-state';
export type * from './playback-output';
export * from './schedule';
export * from './web-audio-playback';
