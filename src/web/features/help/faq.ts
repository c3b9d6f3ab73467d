import { formatCents, PLANS } from '../../../shared/plans';

/** Answers true to how this app works (audio stays in the browser; downloads spend one credit or crown). */
export const FAQ = [
  {
    q: 'Which audio formats can I upload?',
    a: 'WAV, MP3, OGG, FLAC, AIFF and M4A files. Mixer uploads can be up to 100MB each.',
  },
  {
    q: 'Is my audio processed on your servers?',
    a: 'No. Mixing, mastering and export run in your browser, so you hear changes immediately. Tracks you save to your account are stored privately and only you can play them.',
  },
  {
    q: 'Can I try it before subscribing?',
    a: 'Yes. With a free account you can use the mixer and mastering in preview mode. Mastered playback is muted for one second every five seconds, and downloads need a subscription.',
  },
  {
    q: 'What is the difference between credits and crowns?',
    a: `Pro includes ${PLANS.pro.allowance.mixCredits} mix credits and ${PLANS.pro.allowance.masteringCredits} mastering credits each month; Unlimited includes ${PLANS.unlimited.allowance.crowns} universal crowns. A crown can pay for any download. Pro spends the matching credit first and then crowns.`,
  },
  {
    q: 'How much is a download?',
    a: 'One credit or crown per download, whether you choose WAV, MP3 or both formats.',
  },
  {
    q: 'How do I buy more crowns?',
    a: `Subscribers can buy 1 to 1000 crowns at a time from the Buy Crowns page: ${formatCents(PLANS.pro.crownPriceCents)} each on Pro and ${formatCents(PLANS.unlimited.crownPriceCents)} each on Unlimited.`,
  },
  {
    q: 'Can I change or cancel my plan?',
    a: 'Yes, from Settings. Upgrading to Unlimited takes effect immediately; downgrading to Pro starts at your next billing cycle; after cancelling you keep access until the end of the billing period. Every plan has a 30-day money-back guarantee.',
  },
  {
    q: 'What are the manual mastering controls?',
    a: 'Unlimited subscribers can set compression, brightness, warmth, stereo width and loudness themselves instead of using the Clean, Balanced or Loud presets.',
  },
];
