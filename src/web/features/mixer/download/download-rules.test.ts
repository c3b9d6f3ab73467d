import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../../shared/api/user';
import { downloadBlock, mixdownFileName } from './download-rules';

const user = (over: Partial<PublicUser> = {}): PublicUser =>
  ({
    id: 1,
    email: 'a@example.test',
    username: 'a',
    hasSubscription: true,
    subscriptionType: 'pro',
    mixCredits: 1,
    masteringCredits: 0,
    crowns: 0,
    isAdmin: false,
    createdAt: '2026-01-01',
    ...over,
  }) as PublicUser;

describe('downloadBlock', () => {
  it('checks mixdown, login, subscription, then credits, in that order', () => {
    expect(downloadBlock({ hasMixdown: false, user: null, devCredits: null })?.notice.title).toBe(
      'No Mixdown Available',
    );
    expect(downloadBlock({ hasMixdown: true, user: null, devCredits: null })).toEqual({
      kind: 'login',
      notice: { title: 'Please Log In First', description: 'Click here to go to the login page → /auth' },
    });
    const trial = user({ hasSubscription: false, subscriptionType: null, mixCredits: 0 });
    expect(downloadBlock({ hasMixdown: true, user: trial, devCredits: null })?.notice.title).toBe(
      'Subscription Required',
    );
    const empty = user({ mixCredits: 0, crowns: 0 });
    expect(downloadBlock({ hasMixdown: true, user: empty, devCredits: null })?.notice.description).toBe(
      'You need mix credits or crowns to download. Purchase more or upgrade your plan.',
    );
  });

  it('lets a subscriber with a credit or a crown through', () => {
    expect(downloadBlock({ hasMixdown: true, user: user(), devCredits: null })).toBeNull();
    const crowns = user({ subscriptionType: 'unlimited', mixCredits: 0, crowns: 3 });
    expect(downloadBlock({ hasMixdown: true, user: crowns, devCredits: null })).toBeNull();
  });

  it('developer mode counts the local store, not the account', () => {
    expect(
      downloadBlock({ hasMixdown: true, user: null, devCredits: { mixCredits: 0, crowns: 35 } }),
    ).toBeNull();
    expect(
      downloadBlock({ hasMixdown: true, user: null, devCredits: { mixCredits: 0, crowns: 0 } })?.notice.title,
    ).toBe('No Credits Available');
  });

  it('names the files as the spec does', () => {
    expect(mixdownFileName('wav')).toBe('Mixdown.wav');
    expect(mixdownFileName('mp3')).toBe('Mixdown.mp3');
  });
});
