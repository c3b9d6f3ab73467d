import { describe, expect, it } from 'vitest';
import { balanceLines, showsCredits } from './balances';

describe('balance lines', () => {
  it('trial: no downloads', () => {
    expect(balanceLines(null, { mixCredits: 3, masteringCredits: 3, crowns: 3 })).toEqual([
      'Trial - No downloads',
    ]);
  });
  it('Pro: every balance, crowns last', () => {
    expect(balanceLines('pro', { mixCredits: 10, masteringCredits: 9, crowns: 1 })).toEqual([
      '10 Mix credits',
      '9 Mastering credits',
      '1 Crown',
    ]);
  });
  it('Unlimited: crowns only, plus credits kept from Pro while any are left', () => {
    const fresh = { mixCredits: 0, masteringCredits: 0, crowns: 35 };
    expect(balanceLines('unlimited', fresh)).toEqual(['35 Crowns']);
    expect(showsCredits('unlimited', fresh)).toBe(false);
    const kept = { mixCredits: 9, masteringCredits: 0, crowns: 34 };
    expect(balanceLines('unlimited', kept)).toEqual(['9 Mix credits', '34 Crowns']);
    expect(showsCredits('unlimited', kept)).toBe(true);
  });
});
