import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { isTransient, withRetries } from './retry';

const noWait = async () => {};

describe('withRetries', () => {
  it('tries again after a dropped connection or a server error, waiting the given delays', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await withRetries(
      async () => {
        calls++;
        if (calls === 1) throw new TypeError('network');
        if (calls === 2) throw new ApiError(503, '503', 'busy');
        return 'kept';
      },
      [2000, 10_000],
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(result).toBe('kept');
    expect(calls).toBe(3);
    expect(waits).toEqual([2000, 10_000]);
  });

  it('stops at the first refusal and gives its error', async () => {
    let calls = 0;
    const refused = new ApiError(409, '409', 'Those files were not paid for');
    await expect(
      withRetries(
        async () => {
          calls++;
          throw refused;
        },
        [1, 1],
        noWait,
      ),
    ).rejects.toBe(refused);
    expect(calls).toBe(1);
  });

  it('gives the last error when every try failed', async () => {
    let calls = 0;
    await expect(
      withRetries(
        async () => {
          calls++;
          throw new ApiError(500, '500', `failure ${calls}`);
        },
        [1, 1],
        noWait,
      ),
    ).rejects.toMatchObject({ detail: 'failure 3' });
    expect(calls).toBe(3);
  });

  it('counts a cancelled request as final', () => {
    expect(isTransient(new DOMException('cancelled', 'AbortError'))).toBe(false);
    expect(isTransient(new ApiError(429, '429', 'slow down'))).toBe(true);
    expect(isTransient(new ApiError(403, '403', 'no'))).toBe(false);
  });
});
