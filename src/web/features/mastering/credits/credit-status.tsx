import { Link } from 'react-router';
import { SPEND_ORDER_NOTE, showsCredits } from '../../../../shared/balances';
import { creditStatusLines } from '../mastering-rules';
import { TEXT } from '../mastering-texts';
import type { Access } from '../use-mastering';

/** Spec 2: the 'Preview Mode' notice for users without a subscription, and the credit status texts. */
export function CreditStatus({ access }: { access: Access }) {
  const { user, credits } = access;
  if (!user) return null;
  const balances = credits ?? user;
  const lines = creditStatusLines(user.subscriptionType, balances);
  return (
    <div className="grid gap-2 sm:gap-3" data-testid="credit-status">
      {!user.hasSubscription ? (
        <div className="rounded-lg border border-amber-500/40 bg-amber-950/40 p-4" role="note">
          <p className="font-semibold text-amber-200">{TEXT.previewMode}</p>
          <p className="mt-1 text-sm text-amber-100/90">
            Master and listen freely; mastered playback is muted for 1 second in every 5.{' '}
            <Link to="/pricing" className="underline underline-offset-4">
              Subscribe
            </Link>{' '}
            to download your masters.
          </p>
        </div>
      ) : null}
      {/* Smaller chips on a phone: with the crowns and the spend-order note the first screen must still
          show the controls' Master Track (decision 242). */}
      <ul className="flex flex-wrap gap-1.5 text-xs sm:gap-2 sm:text-sm">
        {lines.map((line) => (
          <li
            key={line}
            className="rounded-full border border-zinc-700 bg-zinc-900 px-2.5 py-0.5 text-zinc-200 sm:px-3 sm:py-1"
          >
            {line}
          </li>
        ))}
        {access.devMode ? (
          <li className="rounded-full border border-red-500/40 bg-red-950/40 px-2.5 py-0.5 text-red-200 sm:px-3 sm:py-1">
            Developer mode: local credits
          </li>
        ) : null}
      </ul>
      {user.hasSubscription && showsCredits(user.subscriptionType, balances) ? (
        <p className="text-xs text-zinc-400">{SPEND_ORDER_NOTE}</p>
      ) : null}
    </div>
  );
}
