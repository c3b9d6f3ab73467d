/**
 * What the streaming platforms do to a master's level at playback (loudness normalisation), in one table,
 * so the "How it will play" panel, its playback and its tests share one set of rules (decision 125).
 *
 * Every rule names where it comes from. What the platforms do not publish (the exact headroom rule of
 * Apple's Sound Check, Amazon's and Deezer's turn-up behaviour) is modelled conservatively and marked
 * "approximation"; decision 125 lists each one.
 */

export type PlatformId =
  | 'spotify'
  | 'spotify-loud'
  | 'spotify-quiet'
  | 'apple-music'
  | 'youtube'
  | 'tidal'
  | 'amazon-music'
  | 'deezer';

/**
 * - `peak-limited`: turns loud masters down and quiet ones up, but up only as far as the true peak stays at
 *   or under `ceilingDbtp`;
 * - `down-only`: turns loud masters down, never up;
 * - `limiter`: sets the level whatever the peak and catches the peaks with a limiter (Spotify Loud).
 */
export type NormalisationRule = 'peak-limited' | 'down-only' | 'limiter';

export interface Platform {
  id: PlatformId;
  name: string;
  targetLufs: number;
  rule: NormalisationRule;
  /** The true peak the platform asks a master to stay under (its headroom advice), dBTP. */
  ceilingDbtp: number;
  /** Where the rule comes from, shown as a tooltip and kept here for review. */
  source: string;
}

/** Spotify's limiter in Loud mode: engages at -1 dB (sample values), 5 ms attack, 100 ms decay. */
export const SPOTIFY_LOUD_LIMITER = { ceilingDb: -1, attackMs: 5, releaseMs: 100 } as const;

export const PLATFORMS: readonly Platform[] = [
  {
    // Spotify for Artists, "Loudness normalization": -14 LUFS; positive gain is limited so the track keeps
    // 1 dB of headroom (the example: -20 LUFS with a -5 dBFS true peak is lifted to -16 LUFS only).
    id: 'spotify',
    name: 'Spotify',
    targetLufs: -14,
    rule: 'peak-limited',
    ceilingDbtp: -1,
    source: 'Spotify for Artists, Loudness normalization: -14 LUFS, gain up only while 1 dB headroom remains',
  },
  {
    // Same page: "Loud: -11 LUFS ... we set this level regardless of maximum True Peak. We apply a limiter
    // ... set to engage at -1 dB (sample values), with a 5 ms attack time and a 100 ms decay time."
    id: 'spotify-loud',
    name: 'Spotify (Loud)',
    targetLufs: -11,
    rule: 'limiter',
    ceilingDbtp: -1,
    source:
      'Spotify for Artists: Loud -11 LUFS regardless of peak, limiter at -1 dB, 5 ms attack, 100 ms decay',
  },
  {
    // Same page: "Quiet: -19 LUFS"; the headroom rule of the normal setting applies to positive gain.
    id: 'spotify-quiet',
    name: 'Spotify (Quiet)',
    targetLufs: -19,
    rule: 'peak-limited',
    ceilingDbtp: -1,
    source: 'Spotify for Artists: Quiet -19 LUFS, same headroom rule as Normal',
  },
  {
    // Apple Music Sound Check: -16 LUFS (Apple Digital Masters guidance, and measured by the trade); it turns
    // quiet songs up only as far as their peaks allow. Approximation: the headroom it keeps is not published;
    // we use Apple Digital Masters' -1 dBTP advice as the limit.
    id: 'apple-music',
    name: 'Apple Music',
    targetLufs: -16,
    rule: 'peak-limited',
    ceilingDbtp: -1,
    source: 'Apple Music Sound Check -16 LUFS; up only within peak headroom (limit -1 dBTP: approximation)',
  },
  {
    // YouTube: loudness normalisation to about -14 LUFS that only turns loud uploads down ("stats for nerds",
    // content loudness never positive). -1 dBTP is the usual advice, not a published YouTube rule.
    id: 'youtube',
    name: 'YouTube',
    targetLufs: -14,
    rule: 'down-only',
    ceilingDbtp: -1,
    source: 'YouTube: -14 LUFS, turns down only; -1 dBTP is common advice (approximation)',
  },
  {
    // TIDAL: normalises to -14 LUFS and does not turn quieter tracks up (TIDAL support, "Loudness
    // normalization"). -1 dBTP as for the others.
    id: 'tidal',
    name: 'TIDAL',
    targetLufs: -14,
    rule: 'down-only',
    ceilingDbtp: -1,
    source: 'TIDAL: -14 LUFS, turns down only',
  },
  {
    // Amazon Music: -14 LUFS and the delivery advice of -2 dBTP (Amazon Music for Artists). Approximation:
    // whether and how far it turns up is not published; modelled as up within the -2 dBTP headroom.
    id: 'amazon-music',
    name: 'Amazon Music',
    targetLufs: -14,
    rule: 'peak-limited',
    ceilingDbtp: -2,
    source: 'Amazon Music: -14 LUFS, advises -2 dBTP; turn-up within that headroom is an approximation',
  },
  {
    // Deezer: -15 LUFS. Approximation: the turn-up rule is not published; modelled like Spotify's (-1 dBTP).
    id: 'deezer',
    name: 'Deezer',
    targetLufs: -15,
    rule: 'peak-limited',
    ceilingDbtp: -1,
    source: 'Deezer: -15 LUFS; turn-up within -1 dBTP headroom is an approximation',
  },
];

export const platformById = (id: PlatformId): Platform => {
  const platform = PLATFORMS.find((p) => p.id === id);
  if (!platform) throw new RangeError(`Unknown platform: ${id}`);
  return platform;
};

export interface PlatformPlayback {
  platform: Platform;
  /** The gain the platform applies to this master, dB (negative: turned down). */
  gainDb: number;
  direction: 'up' | 'down' | 'none';
  /** The platform wanted more gain than it applies (the peak headroom rule or down-only stopped it). */
  heldBackDb: number;
  /** The loudness a listener gets, before any limiter (LUFS). */
  playedLufs: number;
  /** The true peak after the gain, before any limiter (dBTP). */
  playedTruePeakDbtp: number;
  /** Spotify Loud: how far the gained peak goes over its limiter's ceiling (dB, 0 when it does not). */
  limiterOverDb: number;
  /** The master's true peak leaves less headroom than the platform asks (the lossy encode may clip). */
  headroomWarning: boolean;
}

/** Gains under half a hundredth of a dB are "none" (a master already at the target). */
const NO_CHANGE_DB = 0.005;

/** What `platform` does to a master of `lufs` integrated loudness and `truePeakDbtp` true peak. */
export const platformPlayback = (
  platform: Platform,
  lufs: number,
  truePeakDbtp: number,
): PlatformPlayback => {
  if (!Number.isFinite(lufs)) throw new RangeError('The master has no measurable loudness');
  const wanted = platform.targetLufs - lufs;
  let gainDb = wanted;
  if (wanted > 0 && platform.rule === 'down-only') gainDb = 0;
  // Up only while the true peak stays under the ceiling; a master already over it is not raised at all.
  if (wanted > 0 && platform.rule === 'peak-limited')
    gainDb = Math.min(wanted, Math.max(0, platform.ceilingDbtp - truePeakDbtp));
  if (Math.abs(gainDb) < NO_CHANGE_DB) gainDb = 0;
  const playedTruePeakDbtp = truePeakDbtp + gainDb;
  return {
    platform,
    gainDb,
    direction: gainDb > 0 ? 'up' : gainDb < 0 ? 'down' : 'none',
    heldBackDb: Math.max(0, wanted - gainDb),
    playedLufs: lufs + gainDb,
    playedTruePeakDbtp,
    limiterOverDb:
      platform.rule === 'limiter' ? Math.max(0, playedTruePeakDbtp - SPOTIFY_LOUD_LIMITER.ceilingDb) : 0,
    headroomWarning: truePeakDbtp > platform.ceilingDbtp,
  };
};

/** The whole table for one master. */
export const platformTable = (lufs: number, truePeakDbtp: number): PlatformPlayback[] =>
  PLATFORMS.map((p) => platformPlayback(p, lufs, truePeakDbtp));
