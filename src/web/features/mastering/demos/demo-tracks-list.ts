import type { PresetId } from '../mastering-constants';

/** The demo tracks shipped in public/demo (made by scripts/generate-demo-tracks.ts). */
export const DEMO_TRACKS: { title: string; file: string; preset: PresetId; style: string }[] = [
  {
    title: 'Acoustic Sketch',
    file: '/demo/acoustic-sketch.mp3',
    preset: 'clean',
    style: 'Soft plucked chords',
  },
  { title: 'Pop Groove', file: '/demo/pop-groove.mp3', preset: 'balanced', style: 'Drums, bass and keys' },
  {
    title: 'Club Loop',
    file: '/demo/club-loop.mp3',
    preset: 'loud',
    style: 'Four-on-the-floor with a sub bass',
  },
];
