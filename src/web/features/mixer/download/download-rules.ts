import type { PublicUser } from '../../../../shared/api/user';
import { TIER_RULES, tierOf } from '../../../../shared/plans';
import { MIXER_NOTICES, type Notice } from '../mixer-messages';

export interface CreditBalance {
  mixCredits: number;
  crowns: number;
}

export type DownloadBlock = { kind: 'login'; notice: Notice } | { kind: 'refused'; notice: Notice };

/**
 * Spec 5 'Mixer', in order: a created mixdown, a logged-in user, an active subscription, a mix credit or a
 * crown. Developer mode (only when the server's config enables it) skips the account checks and counts the
 * local credit store instead. Null means the download may go ahead.
 */
export const downloadBlock = (input: {
  hasMixdown: boolean;
  user: PublicUser | null;
  devCredits: CreditBalance | null;
}): DownloadBlock | null => {
  if (!input.hasMixdown) return { kind: 'refused', notice: MIXER_NOTICES.noMixdown };
  if (input.devCredits) {
    return hasCredit(input.devCredits) ? null : { kind: 'refused', notice: MIXER_NOTICES.noCredits };
  }
  const { user } = input;
  if (!user) return { kind: 'login', notice: MIXER_NOTICES.logIn };
  if (!user.hasSubscription || !TIER_RULES[tierOf(user.subscriptionType)].canDownload) {
    return { kind: 'refused', notice: MIXER_NOTICES.subscription };
  }
  if (!hasCredit(user)) return { kind: 'refused', notice: MIXER_NOTICES.noCredits };
  return null;
};

const hasCredit = (b: CreditBalance): boolean => b.mixCredits > 0 || b.crowns > 0;

/** Spec 9: 'Mixdown.wav' and 'Mixdown.mp3'. */
export const mixdownFileName = (format: 'wav' | 'mp3'): string => `Mixdown.${format}`;
