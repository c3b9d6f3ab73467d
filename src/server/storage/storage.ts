import type { Readable } from 'node:stream';

/** Inclusive byte range, as HTTP Range and S3 speak it. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface ObjectStat {
  size: number;
}

export interface PutOptions {
  contentType: string;
}

/**
 * Where uploaded audio lives. Keys are made by the server only (see `newObjectKey`), never from user input.
 * `put` is all-or-nothing: the object becomes visible only once the body has ended without error; if the
 * body fails (too large, wrong type, aborted connection) nothing is left behind and `put` rejects with
 * the body's error.
 */
export interface Storage {
  readonly kind: 'disk' | 's3';
  put(key: string, body: Readable, opts: PutOptions): Promise<ObjectStat>;
  /** A stream of the object's bytes (or of one range of them); rejects with ObjectNotFoundError. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<ObjectStat | null>;
  /** Idempotent: deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Keys under a folder prefix ending in '/' ('' for everything). */
  list(prefix: string): Promise<string[]>;
  /** Deletes every object under a folder prefix ending in '/'; returns how many went. */
  deletePrefix(prefix: string): Promise<number>;
  /** Throws when the storage cannot be written to (the health check). */
  check(): Promise<void>;
}

export class ObjectNotFoundError extends Error {
  constructor(key: string) {
    super(`Object not found: ${key}`);
  }
}

// Segments of letters, digits and dashes: no dots, no slashes at the ends, so a key can never climb out.
const KEY = /^[A-Za-z0-9-]+(\/[A-Za-z0-9-]+)*$/;
const PREFIX = /^([A-Za-z0-9-]+\/)*$/;

export function assertKey(key: string): string {
  if (!KEY.test(key) || key.length > 200) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  return key;
}

export function assertPrefix(prefix: string): string {
  if (!PREFIX.test(prefix) || prefix.length > 200)
    throw new Error(`Invalid storage prefix: ${JSON.stringify(prefix)}`);
  return prefix;
}

/** Every object of one user lives under this prefix, so deleting an account can sweep them all. */
export const userPrefix = (userId: number): string => `u${userId}/`;
