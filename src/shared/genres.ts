/**
 * Round 3 (issues 26, 28, 31): the genres the mixer and the mastering page aim at. One list for both, so a
 * mix made for Hip-hop arrives on the mastering page with Hip-hop chosen. The mixer offers all of them
 * (the issue asks for at least the first six); the mastering page adds nothing of its own.
 */
export const GENRES = ['hiphop', 'pop', 'rnb', 'rock', 'edm', 'acoustic', 'jazz'] as const;
export type Genre = (typeof GENRES)[number];

export const GENRE_LABELS: Readonly<Record<Genre, string>> = {
  hiphop: 'Hip-hop / Trap',
  pop: 'Pop',
  rnb: 'R&B',
  rock: 'Rock',
  edm: 'EDM',
  acoustic: 'Acoustic / Folk',
  jazz: 'Jazz / Classical',
};

export const isGenre = (value: unknown): value is Genre =>
  typeof value === 'string' && (GENRES as readonly string[]).includes(value);
