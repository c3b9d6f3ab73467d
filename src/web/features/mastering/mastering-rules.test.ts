import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../shared/api/user';
import { PRESETS } from '../../../shared/mastering';
import {
  canUseManual,
  checkDownload,
  creditStatusLines,
  isAllowedAudio,
  isMutedAt,
  isPreviewMode,
  matchedGains,
  meterTone,
  muteWindowStarts,
  parseTrackId,
  resolveSetup,
  resultKey,
} from './mastering-rules';
import { NOTICES } from './mastering-texts';

const user = (over: Partial<PublicUser> = {}): PublicUser =>
  ({
    id: 1,
    email: 'a@example.test',
    username: 'a',
    hasSubscription: true,
    subscriptionType: 'pro',
    mixCredits: 10,
    masteringCredits: 10,
    crowns: 0,
    isAdmin: false,
    createdAt: '2026-01-01T00:00:00Z',
    ...over,
  }) as PublicUser;
const trial = () =>
  user({ hasSubscription: false, subscriptionType: null, masteringCredits: 0, mixCredits: 0 });

describe('mastering rules', () => {
  it('accepts only positive whole track ids', () => {
    expect(parseTrackId('42')).toBe(42);
    for (const bad of ['0', '-3', '1.5', 'abc', '', '12abc', '99999999999'])
      expect(parseTrackId(bad)).toBeNull();
  });

  it('accepts WAV, MP3 and OGG only', () => {
    expect(isAllowedAudio({ type: 'audio/wav', name: 'a.wav' })).toBe(true);
    expect(isAllowedAudio({ type: 'audio/mp3', name: 'a.mp3' })).toBe(true);
    expect(isAllowedAudio({ type: 'audio/x-wav', name: 'a.wav' })).toBe(true);
    expect(isAllowedAudio({ type: '', name: 'take.ogg' })).toBe(true);
    // Issue 19's formats beside the spec's.
    expect(isAllowedAudio({ type: 'audio/flac', name: 'a.flac' })).toBe(true);
    expect(isAllowedAudio({ type: 'audio/x-aiff', name: 'a.aif' })).toBe(true);
    expect(isAllowedAudio({ type: 'audio/x-m4a', name: 'a.m4a' })).toBe(true);
    expect(isAllowedAudio({ type: '', name: 'take.aiff' })).toBe(true);
    expect(isAllowedAudio({ type: 'audio/webm', name: 'a.webm' })).toBe(false);
    expect(isAllowedAudio({ type: 'text/plain', name: 'a.wav' })).toBe(false);
  });

  it('words the credit status as spec 2 does', () => {
    expect(creditStatusLines(null, trial())).toEqual(['Trial - No downloads']);
    expect(creditStatusLines('pro', user({ crowns: 1 }))).toEqual([
      '10 Mix credits',
      '10 Mastering credits',
      '1 Crown',
    ]);
    expect(creditStatusLines('unlimited', user({ mixCredits: 0, masteringCredits: 0, crowns: 35 }))).toEqual([
      '35 Crowns',
    ]);
    // Credits kept from Pro are spent before crowns (decision 220), so they are shown while any are left.
    expect(creditStatusLines('unlimited', user({ mixCredits: 9, masteringCredits: 9, crowns: 35 }))).toEqual([
      '9 Mix credits',
      '9 Mastering credits',
      '35 Crowns',
    ]);
  });

  it('allows manual mode on the Unlimited plan only', () => {
    expect(canUseManual(user({ subscriptionType: 'unlimited' }))).toBe(true);
    expect(canUseManual(user())).toBe(false);
    expect(canUseManual(trial())).toBe(false);
    expect(canUseManual(null)).toBe(false);
  });

  it('mutes the last second of every five for users in preview mode', () => {
    expect(isPreviewMode(trial(), trial())).toBe(true);
    expect(isPreviewMode(user(), user({ masteringCredits: 0, crowns: 0 }))).toBe(true);
    expect(isPreviewMode(user(), user())).toBe(false);
    expect([0, 3.99, 4, 4.99, 5, 9.5].map(isMutedAt)).toEqual([false, false, true, true, false, true]);
    expect(muteWindowStarts(0, 12)).toEqual([4, 9]);
    expect(muteWindowStarts(6, 20)).toEqual([9, 14, 19]);
  });

  it('checks a download in the spec order, developer mode skipping only the credit check', () => {
    const base = { hasMaster: true, devMode: false };
    expect(checkDownload({ ...base, user: null, credits: null })).toMatchObject({
      notice: NOTICES.authRequired,
    });
    expect(checkDownload({ ...base, user: trial(), credits: trial() })).toMatchObject({
      notice: NOTICES.subscriptionRequired,
    });
    expect(checkDownload({ ...base, hasMaster: false, user: user(), credits: user() })).toMatchObject({
      notice: NOTICES.noMasteredTrack,
    });
    const empty = user({ masteringCredits: 0, crowns: 0 });
    expect(checkDownload({ ...base, user: empty, credits: empty })).toMatchObject({
      notice: NOTICES.noCredits,
    });
    expect(checkDownload({ ...base, devMode: true, user: empty, credits: empty })).toEqual({ ok: true });
    expect(
      checkDownload({
        ...base,
        user: user({ masteringCredits: 0, crowns: 2 }),
        credits: user({ masteringCredits: 0, crowns: 2 }),
      }),
    ).toEqual({ ok: true });
  });

  it('resolves settings and targets from mode, preset and target choice', () => {
    const custom = { compression: 40, brightness: 55, warmth: 45, stereoWidth: 55, loudness: 50 };
    expect(resolveSetup({ mode: 'automatic', preset: 'loud', settings: custom, target: 'preset' })).toEqual({
      settings: PRESETS.loud.settings,
      targetLufs: -9,
    });
    expect(
      resolveSetup({ mode: 'automatic', preset: 'loud', settings: custom, target: 'apple' }).targetLufs,
    ).toBe(-16);
    expect(resolveSetup({ mode: 'manual', preset: 'loud', settings: custom, target: 'preset' })).toEqual({
      settings: custom,
      targetLufs: -14,
    });
    expect(resultKey({ mode: 'manual', preset: 'clean' })).toBe('manual');
    expect(resultKey({ mode: 'automatic', preset: 'clean' })).toBe('clean');
  });

  it('turns the louder side down for A/B, never up', () => {
    const g = matchedGains(-22, -14);
    expect(g.original).toBe(1);
    expect(20 * Math.log10(g.master)).toBeCloseTo(-8, 6);
    expect(matchedGains(-10, -14).master).toBe(1);
    expect(matchedGains(Number.NEGATIVE_INFINITY, -14)).toEqual({ original: 1, master: 1 });
  });

  it('changes meter colour at 50, 75 and 90%', () => {
    expect([0, 49, 50, 74, 75, 89, 90, 100].map(meterTone)).toEqual([
      'low',
      'low',
      'mid',
      'mid',
      'high',
      'high',
      'clip',
      'clip',
    ]);
  });
});
