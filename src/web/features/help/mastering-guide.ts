/**
 * Help's guide to what the mastering page does beyond the spec (issue 30, decision 246): one entry per
 * feature shipped since, named as the page names it, in plain words.
 */
export const MASTERING_GUIDE: { name: string; text: string }[] = [
  {
    name: 'Uploads',
    text: 'WAV, MP3, OGG, FLAC, AIFF and M4A files, on the mixer and the mastering page alike.',
  },
  {
    name: 'Tone match',
    text: 'The master is nudged toward a balanced tone, measured on your track; the slider sets how far (Unlimited, in manual mode).',
  },
  {
    name: 'Reference track',
    text: 'In manual mode, load a song you like: the master takes on its loudness and its tone. While a reference is loaded its loudness replaces the Loudness target, and the page says so. If the reference stops short in the highs (a lossy MP3, for example), those empty bands are left out and a note tells you.',
  },
  {
    name: 'Vocal space',
    text: 'For a mix made in the mixer: turns the beat down a little around the voice, only while it sings, so the words come through.',
  },
  {
    name: 'Versions',
    text: 'A mix exported from the mixer can be downloaded as Main, Instrumental, A cappella, Vocal up and Vocal down, all mastered the same way, for one credit or crown.',
  },
  {
    name: 'How it will play',
    text: 'How loud Spotify, Apple Music, YouTube and others will play your master once they turn it up or down; Play lets you hear it that way.',
  },
  {
    name: 'Codec preview',
    text: 'Streaming services send a compressed copy (MP3, AAC). This encodes your master the same way and shows whether its peaks survive.',
  },
  {
    name: 'Why it sounds like this',
    text: 'What the mastering found and changed, in steps: level, tone, dynamics and stereo, each measured on your track.',
  },
  {
    name: 'Loudness and spectrum',
    text: 'How loud the original and the master are, and a picture of their spectrum (low notes left, high notes right).',
  },
  {
    name: 'More formats',
    text: 'Besides WAV and MP3, the download offers WAV 24-bit, WAV 32-bit float, FLAC 16-bit and FLAC 24-bit, at the source rate, 44.1 kHz or 48 kHz.',
  },
  {
    name: 'On a phone',
    text: 'The source, the controls and Master Track come first; the analysis panels are folded underneath (tap to open). In the mixer, pinch the timeline to zoom and use Fine drag to place a clip precisely.',
  },
];
