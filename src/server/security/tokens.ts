import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: session ids and reset tokens. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** Only this digest is stored, so a database leak does not leak usable tokens. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
