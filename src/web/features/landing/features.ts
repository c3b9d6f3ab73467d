/** The six feature cards of spec section 1. */
export const FEATURES = [
  {
    title: 'Vocal Mixer',
    body: 'Blend your vocals with instrumentals and beats. Drag, edit and position vocal clips with precise timing.',
    icon: 'mixer',
  },
  {
    title: 'AI Mastering',
    body: 'Our mastering engine analyses your track and applies genre-specific processing for a polished, balanced sound.',
    icon: 'spark',
  },
  {
    title: 'Real-Time Processing',
    body: 'Hear every change as you make it, with low-latency processing right in your browser.',
    icon: 'bolt',
  },
  {
    title: 'Track Sequencing',
    body: 'Arrange your vocal clips on a timeline: cut, move and line them up against the instrumental.',
    icon: 'timeline',
  },
  {
    title: 'Export as WAV or MP3',
    body: 'Download studio-quality WAV or compact MP3 files, ready for release or sharing.',
    icon: 'download',
  },
  {
    title: 'Advanced Mastering',
    body: 'Basic presets for Pro users, and advanced manual controls for Unlimited subscribers.',
    icon: 'sliders',
  },
] as const;

export type FeatureIcon = (typeof FEATURES)[number]['icon'];
