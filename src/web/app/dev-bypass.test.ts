import { describe, expect, it } from 'vitest';
import { withoutBypassParam } from './dev-bypass';

describe('withoutBypassParam', () => {
  it('drops only the bypass parameter', () => {
    expect(withoutBypassParam('?bypass=secret')).toBe('');
    expect(withoutBypassParam('?plan=pro&bypass=secret')).toBe('?plan=pro');
    expect(withoutBypassParam('')).toBe('');
  });
});
