import type { Credits } from '../mastering-rules';

/**
 * Developer mode's local credit store (spec 3: crowns 35, mix 0, mastering 0 at page load). It exists only
 * while the server's public config enables developer mode and ?dev=true is in the address.
 */
let balance: Credits = { mixCredits: 0, masteringCredits: 0, crowns: 35 };
const listeners = new Set<() => void>();

export const devCredits = (): Credits => balance;

export const subscribeDevCredits = (fn: () => void): (() => void) => {
  listeners.add(fn);
  return () => listeners.delete(fn);
};

/** A download in developer mode counts down the local store (mastering credit first, then a crown). */
export const spendDevCredit = (): void => {
  if (balance.masteringCredits > 0) balance = { ...balance, masteringCredits: balance.masteringCredits - 1 };
  else if (balance.crowns > 0) balance = { ...balance, crowns: balance.crowns - 1 };
  for (const fn of listeners) fn();
};
