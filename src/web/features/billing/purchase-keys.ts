/**
 * The idempotency key of a crown purchase (decision 092): a new one per purchase the person asks for, kept
 * while that purchase's outcome is unknown. A second click before the answer (a double click) or a click
 * after the connection dropped sends the same key, and the server answers it with the first result instead
 * of charging again. Once the server has answered, the next click is a new purchase.
 */
export function purchaseKeys(newKey: () => string = () => crypto.randomUUID()) {
  let open: { amount: number; key: string } | null = null;
  return {
    /** The key for a click buying `amount` crowns. */
    forClick(amount: number): string {
      if (!open || open.amount !== amount) open = { amount, key: newKey() };
      return open.key;
    },
    /** The server answered (bought, or refused with a reason): the next click is another purchase. */
    answered(): void {
      open = null;
    },
  };
}
export type PurchaseKeys = ReturnType<typeof purchaseKeys>;
