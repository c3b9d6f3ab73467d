import { describe, expect, it } from 'vitest';
import { loginBody } from '../../shared/api/auth';
import { parse } from './validate';

describe('parse', () => {
  it('answers a hostile object where a string belongs with a 400, not a thrown TypeError', () => {
    // Found by hostile-input.test.ts: zod ran the password's length check on this object and threw.
    const hostile = { email: 'a@b.test', password: { length: { toString: null } } };
    expect(() => parse(loginBody, hostile)).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'validation',
        message: 'Request body is missing or has the wrong type',
      }),
    );
  });
});
