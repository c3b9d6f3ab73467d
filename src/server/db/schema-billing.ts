/** Tables of the billing module (see migrations/0002_billing.sql). */
export {};
