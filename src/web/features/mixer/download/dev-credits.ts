import type { CreditBalance } from './download-rules';

/**
 * The local client credit store of developer mode (spec 3): mixCredits 0, masteringCredits 0, crowns 35 at
 * the start of a page load. It only counts while the server's public config enables developer mode.
 */
let balance = { mixCredits: 0, masteringCredits: 0, crowns: 35 };

export const devCredits = (): CreditBalance => ({ mixCredits: balance.mixCredits, crowns: balance.crowns });

/** Spends one mix credit, else one crown (the Pro rule: specific credits first). */
export const spendDevCredit = (): boolean => {
  if (balance.mixCredits > 0) balance = { ...balance, mixCredits: balance.mixCredits - 1 };
  else if (balance.crowns > 0) balance = { ...balance, crowns: balance.crowns - 1 };
  else return false;
  return true;
};
