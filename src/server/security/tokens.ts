import { hash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: session ids and reset tokens. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/**
 * Only this digest is stored, so a database leak does not leak usable tokens. Every API request hashes its
 * session token: the one-shot `crypto.hash` costs about half of createHash().update().digest() (bench/load.ts).
 */
export const hashToken = (token: string): string => hash('sha256', token, 'hex');
