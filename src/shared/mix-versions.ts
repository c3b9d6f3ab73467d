/**
 * Versions of a master made from a mixer mix (issue 18). The list is the server's fixed enum for what a
 * download delivered, and the order the mastering page lists them in.
 */
export const MIX_VERSIONS = ['main', 'instrumental', 'acappella', 'vocal-up', 'vocal-down'] as const;
export type MixVersion = (typeof MIX_VERSIONS)[number];

/** What the page shows for each version, and the file-name suffix (`mastered-{preset}-{timestamp}-{version}`). */
export const MIX_VERSION_LABELS: Readonly<Record<MixVersion, string>> = {
  main: 'Main',
  instrumental: 'Instrumental',
  acappella: 'A cappella',
  'vocal-up': 'Vocal up (+1.5 dB)',
  'vocal-down': 'Vocal down (−1.5 dB)',
};
