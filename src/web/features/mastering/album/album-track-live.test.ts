import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../../shared/api/user';
import { PRESETS } from '../mastering-constants';
import { NOTICES, type Notice } from '../mastering-texts';
import { type AlbumState, type AlbumTrack, initialAlbumState } from './album-state';
import type { AlbumContext } from './album-store';
import { ALBUM_NOTICES } from './album-texts';
import { AlbumTrackLive } from './album-track-live';

const unlimited = { hasSubscription: true, subscriptionType: 'unlimited' } as PublicUser;
const pro = { hasSubscription: true, subscriptionType: 'pro' } as PublicUser;

/** A track with its own sliders and audio loaded, whose analysis is still running. */
const analysing = (key: string): AlbumTrack =>
  ({
    key,
    manual: { ...PRESETS.balanced.settings },
    buffer: { numberOfChannels: 2 } as AudioBuffer,
    analysis: null,
  }) as AlbumTrack;

const setUp = (user: PublicUser) => {
  let state: AlbumState = { ...initialAlbumState(), tracks: [analysing('a'), analysing('b')] };
  const notices: Notice[] = [];
  const stopped: string[] = [];
  const ctx: AlbumContext = {
    deps: {
      notify: (n) => notices.push(n),
      user: () => user,
      refreshUser: async () => user,
      devMode: () => false,
      previewMode: () => false,
    },
    state: () => state,
    set: (patch) => {
      state = { ...state, ...patch };
    },
  };
  // The store's plan is null until every track is analysed (AlbumMasterController.plan).
  const live = new AlbumTrackLive(ctx, { plan: () => null, stopOthers: () => stopped.push('record') });
  return { live, notices, stopped, state: () => state };
};

describe('album track Live preview', () => {
  it('says the album is not ready while its tracks are still analysed, and plays nothing', async () => {
    const { live, notices, stopped, state } = setUp(unlimited);
    await live.setLive('a', true);
    expect(notices).toEqual([ALBUM_NOTICES.notReady]);
    expect(state().live).toBeNull();
    // The record's player is left alone: nothing took its place.
    expect(stopped).toEqual([]);
  });

  it('asks for Unlimited first, whatever the plan', async () => {
    const { live, notices, state } = setUp(pro);
    await live.setLive('a', true);
    expect(notices).toEqual([NOTICES.unlimitedRequired]);
    expect(state().live).toBeNull();
  });
});
