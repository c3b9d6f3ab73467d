/** Web Audio graph builders (live playback and OfflineAudioContext renders share them). */
export {
  buildMasteringChain,
  type LevelEvent,
  loadMasteringWorklet,
  type MasteringChain,
  type MasteringChainOptions,
  playbackGain,
} from './mastering-chain-node';
export { MASTERING_PROCESSOR_NAME, type VocalSpaceSetting } from './mastering-messages';
export {
  buildLivePitchVocal,
  type LivePitchReading,
  type LivePitchVocal,
  loadPitchWorklet,
} from './pitch-vocal-node';
