/**
 * Pure rules of the mastering screen (spec 4, 5, 6 and 9), kept free of React and Web Audio so they are
 * unit-tested on their own.
 */
import { STUDIO_UPLOAD_EXTENSIONS, STUDIO_UPLOAD_TYPES } from '../../../shared/api/tracks';
import type { PublicUser } from '../../../shared/api/user';
import { balanceLines } from '../../../shared/balances';
import {
  type MasteringMode,
  type MasteringSettings,
  manualTargetLufs,
  PLANS_MANUAL_NOTE,
  PRESETS,
  type PresetId,
} from './mastering-constants';
import { NOTICES, type Notice } from './mastering-texts';

/** Spec 5: trackId must be a positive number (whole, as ids are). */
export const parseTrackId = (raw: string): number | null =>
  /^[1-9]\d{0,9}$/.test(raw.trim()) && Number(raw) <= 2_147_483_647 ? Number(raw) : null;

const ALLOWED_TYPES = ['audio/wav', 'audio/mp3', 'audio/mpeg', 'audio/ogg'];
/** Browsers name WAV files in more than one way; these are the same format. */
const WAV_ALIASES = ['audio/x-wav', 'audio/wave', 'audio/vnd.wave'];

/** Spec 5 'Audio upload': WAV, MP3 or OGG, and issue 19's FLAC, AIFF and M4A/AAC. */
export const isAllowedAudio = (file: { type: string; name: string }): boolean => {
  const type = file.type.toLowerCase();
  if (ALLOWED_TYPES.includes(type) || WAV_ALIASES.includes(type) || STUDIO_UPLOAD_TYPES.includes(type))
    return true;
  // Some systems give no type at all: fall back to the extension.
  return type === '' && (/\.(wav|mp3|ogg)$/i.test(file.name) || STUDIO_UPLOAD_EXTENSIONS.test(file.name));
};

export interface Credits {
  mixCredits: number;
  masteringCredits: number;
  crowns: number;
}

/** Spec 2's credit status texts: one list with the header's account menu (src/shared/balances.ts). */
export const creditStatusLines = (
  subscriptionType: PublicUser['subscriptionType'],
  credits: Credits,
): string[] => balanceLines(subscriptionType, credits);

/** Manual controls: only the Unlimited plan, as the server reports the user's plan (spec 5, 6). */
export const canUseManual = (user: PublicUser | null): boolean =>
  user?.hasSubscription === true &&
  user.subscriptionType !== null &&
  PLANS_MANUAL_NOTE[user.subscriptionType];

const hasMasteringCredit = (c: Credits): boolean => c.masteringCredits > 0 || c.crowns > 0;

/** Spec 4: mastered playback is muted periodically for users without credits (or subscription). */
export const isPreviewMode = (user: PublicUser | null, credits: Credits | null): boolean =>
  !user?.hasSubscription || !credits || !hasMasteringCredit(credits);

export const MUTE_PERIOD_S = 5;
export const MUTE_LENGTH_S = 1;

/** The last second of every five is silent: the listener hears each phrase start before it drops out. */
export const isMutedAt = (positionSeconds: number): boolean =>
  positionSeconds % MUTE_PERIOD_S >= MUTE_PERIOD_S - MUTE_LENGTH_S;

/** Start times (track seconds) of the mute windows from `from` to `duration`. */
export const muteWindowStarts = (from: number, duration: number): number[] => {
  const starts: number[] = [];
  const first = Math.floor(from / MUTE_PERIOD_S) * MUTE_PERIOD_S + (MUTE_PERIOD_S - MUTE_LENGTH_S);
  for (let t = first; t < duration; t += MUTE_PERIOD_S) starts.push(t);
  return starts;
};

export type DownloadCheck = { ok: true } | { ok: false; notice: Notice; redirectToAuth?: boolean };

/**
 * Spec 5 'Mastering', in order: logged in, a subscription, a mastered track, mastering credits or crowns
 * above 0. Developer mode skips only the credit check.
 */
export const checkDownload = (input: {
  user: PublicUser | null;
  hasMaster: boolean;
  credits: Credits | null;
  devMode: boolean;
}): DownloadCheck => {
  if (!input.user) return { ok: false, notice: NOTICES.authRequired, redirectToAuth: true };
  if (!input.user.hasSubscription || input.user.subscriptionType === null)
    return { ok: false, notice: NOTICES.subscriptionRequired };
  if (!input.hasMaster) return { ok: false, notice: NOTICES.noMasteredTrack };
  if (!input.devMode && (!input.credits || !hasMasteringCredit(input.credits)))
    return { ok: false, notice: NOTICES.noCredits };
  return { ok: true };
};

export type TargetChoice = 'preset' | 'streaming' | 'apple' | 'club';

export const TARGET_CHOICES: { id: TargetChoice; label: string; lufs: number | null }[] = [
  { id: 'preset', label: "Preset's own", lufs: null },
  { id: 'streaming', label: 'Streaming (-14 LUFS)', lufs: -14 },
  { id: 'apple', label: 'Apple Music (-16 LUFS)', lufs: -16 },
  { id: 'club', label: 'Club / loud (-9 LUFS)', lufs: -9 },
];

export interface MasterSetup {
  mode: MasteringMode;
  preset: PresetId;
  settings: MasteringSettings;
  target: TargetChoice;
}

/** What the render gets: the preset's settings and target, or the sliders and their loudness mapping. */
export const resolveSetup = (setup: MasterSetup): { settings: MasteringSettings; targetLufs: number } => {
  const own =
    setup.mode === 'manual' ? manualTargetLufs(setup.settings.loudness) : PRESETS[setup.preset].targetLufs;
  const settings = setup.mode === 'manual' ? setup.settings : PRESETS[setup.preset].settings;
  const chosen = TARGET_CHOICES.find((t) => t.id === setup.target)?.lufs ?? null;
  return { settings, targetLufs: chosen ?? own };
};

/** Results are kept per preset (spec 4: 'the mastered state per preset'); manual mode has one slot. */
export const resultKey = (setup: Pick<MasterSetup, 'mode' | 'preset'>): string =>
  setup.mode === 'manual' ? 'manual' : setup.preset;

/** The name shown in status texts and used in file names. */
export const setupName = (setup: Pick<MasterSetup, 'mode' | 'preset'>): string =>
  setup.mode === 'manual' ? 'Manual' : PRESETS[setup.preset].name;

/**
 * Loudness-matched A/B: the louder of the two is turned down to the quieter one's integrated loudness, so the
 * comparison is of sound, not level (nothing is turned up, so nothing clips).
 */
export const matchedGains = (
  originalLufs: number,
  masterLufs: number,
): { original: number; master: number } => {
  if (!Number.isFinite(originalLufs) || !Number.isFinite(masterLufs)) return { original: 1, master: 1 };
  const diff = masterLufs - originalLufs;
  return diff > 0 ? { original: 1, master: 10 ** (-diff / 20) } : { original: 10 ** (diff / 20), master: 1 };
};

/** Level meter colour bands (spec 9: changes at 50, 75 and 90%). */
export const meterTone = (percent: number): 'low' | 'mid' | 'high' | 'clip' =>
  percent >= 90 ? 'clip' : percent >= 75 ? 'high' : percent >= 50 ? 'mid' : 'low';
