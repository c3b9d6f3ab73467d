import { describe, expect, it } from 'vitest';
import { purchaseKeys } from './purchase-keys';

describe('crown purchase idempotency keys', () => {
  const counter = () => {
    let n = 0;
    return () => `key-${++n}`;
  };

  it('a double click, or a click after a lost answer, sends the same key', () => {
    const keys = purchaseKeys(counter());
    expect(keys.forClick(25)).toBe('key-1');
    expect(keys.forClick(25)).toBe('key-1');
  });

  it('once the server answered, the next click is a new purchase', () => {
    const keys = purchaseKeys(counter());
    keys.forClick(25);
    keys.answered();
    expect(keys.forClick(25)).toBe('key-2');
  });

  it('another amount is another purchase', () => {
    const keys = purchaseKeys(counter());
    keys.forClick(25);
    expect(keys.forClick(50)).toBe('key-2');
  });

  it('uses random UUIDs by default', () => {
    const a = purchaseKeys().forClick(10);
    const b = purchaseKeys().forClick(10);
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });
});
