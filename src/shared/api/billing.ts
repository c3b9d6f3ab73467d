import { z } from 'zod';
import { MIX_VERSIONS } from '../mix-versions';
import { CROWN_PURCHASE, formatCents, PLAN_IDS } from '../plans';
import { publicUser } from './user';

/** User-facing texts of billing, quoted from the spec where it gives them (sections 5, 6 and 8). */
export const BILLING_MESSAGES = {
  subscriptionRequiredMastering: 'Upgrade to Pro or Unlimited plan to download your mastered track',
  subscriptionRequiredMix: 'Upgrade to Pro or Unlimited plan to download your mix',
  noCreditsMastering: 'You need mastering credits or crowns to download. Purchase more or upgrade your plan.',
  noCreditsMix: 'You need mix credits or crowns to download. Purchase more or upgrade your plan.',
  crownsNeedSubscription: 'Buying crowns requires an active subscription.',
  crownQuantity: `Choose between ${CROWN_PURCHASE.min} and ${CROWN_PURCHASE.max} crowns (maximum ${CROWN_PURCHASE.max} crowns per purchase)`,
  unknownPlan: 'Unknown plan',
  alreadySubscribed: 'You already have an active subscription. Change it in Settings.',
  noSubscription: 'You have no active subscription.',
  upgradeOnlyFromPro: 'Only a Pro subscription can be upgraded to Unlimited.',
  downgradeOnlyFromUnlimited: 'Only an Unlimited subscription can be downgraded to Pro.',
  downgradeAlreadyScheduled: 'Your downgrade to Pro is already scheduled for the next billing cycle.',
  alreadyCanceling: 'Your subscription is already set to end at the close of this billing period.',
  planRequired: 'Choose the plan to change to',
  noPaymentMethod: 'No saved card to charge. Subscribe again through checkout.',
  cardDeclined: 'Your card was declined.',
  cardNumberIncorrect: 'Your card number is incorrect.',
  cardExpired: "Your card's expiration date is incorrect or in the past.",
  cvcIncorrect: "Your card's security code is incorrect.",
  nonTestCard:
    'Your card was declined. This is a test checkout: use one of the test cards shown on the page.',
  authenticationFailed:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  checkoutExpired: 'This checkout session is no longer available. Start again from the pricing page.',
  cycleNeedsLocalProvider: 'Billing cycles are advanced by Stripe itself when Stripe is configured.',
  providerUnavailable: 'The payment provider could not be reached. Please try again in a moment.',
  changeInProgress: 'Another change to your subscription is in progress. Please try again in a moment.',
  idempotencyKeyReused: 'This purchase was already made with different details. Please try again.',
  spendKeyReused: 'This download was already charged with different details. Please try again.',
  spendTrackNotFound: 'Track not found',
} as const;

/**
 * The upgrade's amount moved between the preview the user confirmed and the change (decision 250): nothing
 * was charged, and the message carries the amount that would be charged now.
 */
export const amountChangedMessage = (dueCents: number) =>
  `The amount due today is now ${formatCents(dueCents)} (the unused part of your Pro period shrinks as time passes). Nothing was charged; check the new amount and confirm again.`;

/** The download formats the mastering page offers (the encoders' list, src/audio/codecs/export-formats.ts). */
export const DELIVERY_FORMATS = ['wav', 'mp3', 'wav24', 'wav32f', 'flac16', 'flac24'] as const;

export const DELIVERY_MESSAGES = {
  unknownVersion: `versions must be some of ${MIX_VERSIONS.join(', ')}`,
  unknownFormat: `formats must be some of ${DELIVERY_FORMATS.join(', ')}`,
  repeated: 'A version or format is listed twice',
  onlyMastering: 'Only a mastering download delivers versions',
} as const;

/** Chosen by the browser, one per click or download attempt: a retried request takes effect once. */
const idempotencyKey = z
  .string({ error: 'idempotencyKey is required' })
  .trim()
  .min(8, 'idempotencyKey must be 8 to 100 characters')
  .max(100, 'idempotencyKey must be 8 to 100 characters');

export const spendCreditBody = z
  .object({
    type: z.enum(['mastering', 'mix'], { error: "type must be 'mastering' or 'mix'" }),
    /** One per download attempt: a retried request spends once. */
    idempotencyKey,
    /**
     * Issue 18: the versions of a mastering download (one spend for all of them and all formats), recorded
     * with the spend. Absent: the Main alone, as before.
     */
    versions: z
      .array(z.enum(MIX_VERSIONS, { error: DELIVERY_MESSAGES.unknownVersion }))
      .min(1, DELIVERY_MESSAGES.unknownVersion)
      .max(MIX_VERSIONS.length)
      .refine((v) => new Set(v).size === v.length, DELIVERY_MESSAGES.repeated)
      .optional(),
    /** The formats delivered (recorded with the spend). */
    formats: z
      .array(z.enum(DELIVERY_FORMATS, { error: DELIVERY_MESSAGES.unknownFormat }))
      .min(1, DELIVERY_MESSAGES.unknownFormat)
      .max(DELIVERY_FORMATS.length)
      .refine((f) => new Set(f).size === f.length, DELIVERY_MESSAGES.repeated)
      .optional(),
    /**
     * Issue 29: the saved track the download is of (the mixer's saved mix, the mastering page's track from
     * the mixer), when there is one. Recorded with the spend, so a key is bound to its track too.
     */
    trackId: z
      .number({ error: 'trackId must be a positive whole number' })
      .int('trackId must be a positive whole number')
      .positive('trackId must be a positive whole number')
      .max(2_147_483_647, 'trackId must be a positive whole number')
      .optional(),
  })
  .refine((b) => b.type === 'mastering' || (!b.versions && !b.formats), {
    message: DELIVERY_MESSAGES.onlyMastering,
  });
export type SpendCreditBody = z.infer<typeof spendCreditBody>;

/** Issue 31: an album download spends one mastering credit or crown per track, once for the whole album. */
export const ALBUM_TRACKS = { min: 2, max: 20 } as const;

export const ALBUM_MESSAGES = {
  name: 'album name must be 1 to 200 characters',
  tracks: `An album holds ${ALBUM_TRACKS.min} to ${ALBUM_TRACKS.max} tracks`,
  title: 'Every track needs a title of 1 to 200 characters',
  repeatedTrack: 'A saved track is listed twice',
  continuous: 'continuous must be true or false',
  notEnough: (tracks: number, have: number) =>
    `This album needs ${tracks} mastering credits or crowns (one per track); you have ${have}. Purchase more or upgrade your plan.`,
} as const;

const trackId = z
  .number({ error: 'trackId must be a positive whole number' })
  .int('trackId must be a positive whole number')
  .positive('trackId must be a positive whole number')
  .max(2_147_483_647, 'trackId must be a positive whole number');

const deliveryFormats = z
  .array(z.enum(DELIVERY_FORMATS, { error: DELIVERY_MESSAGES.unknownFormat }))
  .min(1, DELIVERY_MESSAGES.unknownFormat)
  .max(DELIVERY_FORMATS.length)
  .refine((f) => new Set(f).size === f.length, DELIVERY_MESSAGES.repeated);

export const spendAlbumBody = z.object({
  /** One per album download: a retried request spends once; the same key with another album is refused. */
  idempotencyKey,
  album: z.object(
    {
      name: z
        .string({ error: ALBUM_MESSAGES.name })
        .trim()
        .min(1, ALBUM_MESSAGES.name)
        .max(200, ALBUM_MESSAGES.name),
      /** In the record's order; trackId where the track is saved (uploads need not be). */
      tracks: z
        .array(
          z.object({
            trackId: trackId.optional(),
            title: z
              .string({ error: ALBUM_MESSAGES.title })
              .trim()
              .min(1, ALBUM_MESSAGES.title)
              .max(200, ALBUM_MESSAGES.title),
            /**
             * A mixer mix's versions delivered besides its Main (issue 18 inside the album): recorded, and part
             * of the key's binding; the price is the track's one credit or crown whatever they are.
             */
            versions: z
              .array(z.enum(MIX_VERSIONS, { error: DELIVERY_MESSAGES.unknownVersion }))
              .min(1, DELIVERY_MESSAGES.unknownVersion)
              .max(MIX_VERSIONS.length)
              .refine((v) => new Set(v).size === v.length, DELIVERY_MESSAGES.repeated)
              .optional(),
          }),
          { error: ALBUM_MESSAGES.tracks },
        )
        .min(ALBUM_TRACKS.min, ALBUM_MESSAGES.tracks)
        .max(ALBUM_TRACKS.max, ALBUM_MESSAGES.tracks)
        .refine((t) => {
          const ids = t.flatMap((x) => (x.trackId === undefined ? [] : [x.trackId]));
          return new Set(ids).size === ids.length;
        }, ALBUM_MESSAGES.repeatedTrack),
      /** The formats every track is delivered in. */
      formats: deliveryFormats,
      /** Whether the whole record as one continuous file (with its CUE sheet) was delivered too. */
      continuous: z.boolean({ error: ALBUM_MESSAGES.continuous }),
    },
    { error: 'album is required' },
  ),
});
export type SpendAlbumBody = z.infer<typeof spendAlbumBody>;

export const spendCreditResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  user: publicUser,
});
export type SpendCreditResponse = z.infer<typeof spendCreditResponse>;

/** `charged`: the credits and crowns this album download took (one per track; the same on a replay). */
export const spendAlbumResponse = spendCreditResponse.extend({ charged: z.number().int() });
export type SpendAlbumResponse = z.infer<typeof spendAlbumResponse>;

export const purchaseCrownsBody = z.object({
  amount: z
    .number({ error: BILLING_MESSAGES.crownQuantity })
    .int(BILLING_MESSAGES.crownQuantity)
    .min(CROWN_PURCHASE.min, BILLING_MESSAGES.crownQuantity)
    .max(CROWN_PURCHASE.max, BILLING_MESSAGES.crownQuantity),
  /**
   * One per click (the web app always sends it): a repeated key answers the first result and charges once.
   * Optional so that older clients keep working; without it every request is a new purchase.
   */
  idempotencyKey: idempotencyKey.optional(),
});
export type PurchaseCrownsBody = z.infer<typeof purchaseCrownsBody>;

/** totalCost is integer cents, like every amount of money in this codebase (src/shared/plans.ts). */
export const purchaseCrownsResponse = z.object({ totalCost: z.number().int(), user: publicUser });
export type PurchaseCrownsResponse = z.infer<typeof purchaseCrownsResponse>;

export const checkoutSessionBody = z.object({
  lookup_key: z.enum(['pro_plan', 'unlimited_plan'], { error: BILLING_MESSAGES.unknownPlan }),
});
export type CheckoutSessionBody = z.infer<typeof checkoutSessionBody>;

export const checkoutSessionResponse = z.object({ url: z.string() });
export type CheckoutSessionResponse = z.infer<typeof checkoutSessionResponse>;

export const changeSubscriptionBody = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('upgrade'),
      plan: z.literal('unlimited', { error: BILLING_MESSAGES.upgradeOnlyFromPro }),
      /**
       * The amount due the user saw and confirmed (from the preview). When the server would charge another
       * amount now, the change is refused with nothing charged (decision 250). The web app always sends it;
       * optional so that the spec's body {type, plan} stays valid.
       */
      expectedAmountCents: z
        .number({ error: 'expectedAmountCents must be a whole number of cents' })
        .int('expectedAmountCents must be a whole number of cents')
        .min(0, 'expectedAmountCents must be a whole number of cents')
        .max(1_000_000, 'expectedAmountCents must be a whole number of cents')
        .optional(),
    }),
    z.object({
      type: z.literal('downgrade'),
      plan: z.literal('pro', { error: BILLING_MESSAGES.downgradeOnlyFromUnlimited }),
    }),
    z.object({ type: z.literal('cancel'), plan: z.enum(PLAN_IDS).optional() }),
  ],
  { error: "type must be 'upgrade', 'downgrade' or 'cancel'" },
);
export type ChangeSubscriptionBody = z.infer<typeof changeSubscriptionBody>;

/** GET /api/billing/plan-change-preview?type=upgrade&plan=unlimited: the change the dialog is about to confirm. */
export const planChangePreviewQuery = z.object({
  type: z.enum(['upgrade', 'downgrade', 'cancel'], {
    error: "type must be 'upgrade', 'downgrade' or 'cancel'",
  }),
  plan: z.enum(PLAN_IDS, { error: BILLING_MESSAGES.unknownPlan }).optional(),
});
export type PlanChangePreviewQuery = z.infer<typeof planChangePreviewQuery>;

/**
 * What a plan change costs and gives, computed by the server from the provider's subscription at the moment
 * of asking (decision 250). Amounts are integer cents; dates are ISO strings.
 */
export const planChangePreview = z.object({
  type: z.enum(['upgrade', 'downgrade', 'cancel']),
  /** The plan after the change (cancel: the plan held until access ends). */
  plan: z.enum(PLAN_IDS),
  amountDueCents: z.number().int().min(0),
  /** The unused part of the current period's price, taken off the amount due (upgrades only). */
  creditCents: z.number().int().min(0),
  /** Whole days of the current period left unused (upgrades only, else 0). */
  unusedDays: z.number().int().min(0),
  /** The plan's next period: from now for an upgrade, from the next cycle for a downgrade; none for cancel. */
  newPeriod: z.object({ start: z.string(), end: z.string() }).nullable(),
  /** When the current period ends (a downgrade starts then; a cancelled plan's access ends then). */
  currentPeriodEnd: z.string(),
  crownsAdded: z.number().int().min(0),
  quotedAt: z.string(),
});
export type PlanChangePreview = z.infer<typeof planChangePreview>;

export const paymentMethodView = z.object({
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
});
export type PaymentMethodView = z.infer<typeof paymentMethodView>;

export const paymentMethodsResponse = z.object({ methods: z.array(paymentMethodView) });
export type PaymentMethodsResponse = z.infer<typeof paymentMethodsResponse>;

/** Admin (and `npm run billing:cycle`): start the next billing cycle of a user on the local provider. */
export const advanceCycleBody = z.object({ userId: z.number().int().positive() });
export type AdvanceCycleBody = z.infer<typeof advanceCycleBody>;

/**
 * GET /api/billing/payments: money taken and given back, newest first (the payments table: one row per
 * provider invoice or payment, a refund negative). What a subscriber checks a charge against.
 */
export const billingHistoryResponse = z.object({
  payments: z.array(
    z.object({
      /** subscription_create | subscription_cycle | subscription_update | crowns | refund */
      kind: z.string(),
      amountCents: z.number().int(),
      createdAt: z.string(),
    }),
  ),
});
export type BillingHistoryResponse = z.infer<typeof billingHistoryResponse>;
