/**
 * The store's wiring (decision 210): each panel's controller changes the one snapshot through the store, the
 * subscribers hear every change, and a controller that needs another panel's action gets it. No audio here
 * (Node has no AudioContext): the paths that stop before any sound is made.
 */
import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../shared/api/user';
import { DEFAULT_CUSTOM_SETTINGS, PRESETS } from './mastering-constants';
import { initialState } from './mastering-state';
import { MasteringStore } from './mastering-store';
import { NOTICES, type Notice } from './mastering-texts';

const user = (subscriptionType: PublicUser['subscriptionType']): PublicUser =>
  ({
    id: 1,
    email: 'a@example.test',
    username: 'a',
    hasSubscription: subscriptionType !== null,
    subscriptionType,
    mixCredits: 0,
    masteringCredits: 0,
    crowns: 0,
    isAdmin: false,
    createdAt: '2026-01-01T00:00:00Z',
  }) as PublicUser;

const storeFor = (who: PublicUser | null) => {
  const notices: Notice[] = [];
  const store = new MasteringStore({
    notify: (n) => notices.push(n),
    user: () => who,
    refreshUser: async () => who,
    previewMode: () => false,
  });
  let changes = 0;
  store.subscribe(() => changes++);
  return { store, notices, changes: () => changes };
};

const file = (name: string, type: string) => ({ name, type }) as File;

describe('mastering store', () => {
  it('starts from the initial state', () => {
    const { store } = storeFor(null);
    expect(store.getState()).toEqual(initialState());
    expect(store.current()).toBeNull();
  });

  it('controls: a slider move takes an Unlimited user into manual mode from the preset, a preset back out', () => {
    const { store, notices, changes } = storeFor(user('unlimited'));
    store.controls.setPreset('loud');
    store.controls.setSlider('brightness', 7);
    expect(store.getState().mode).toBe('manual');
    expect(store.getState().custom).toEqual({ ...PRESETS.loud.settings, brightness: 7 });
    store.controls.setPreset('balanced');
    expect(store.getState()).toMatchObject({ preset: 'balanced', mode: 'automatic' });
    expect(changes()).toBe(3);
    expect(notices).toEqual([]);
  });

  it('controls: manual mode and the sliders answer a Pro user with the notice and change nothing', () => {
    const { store, notices, changes } = storeFor(user('pro'));
    store.controls.setMode('manual');
    store.controls.setSlider('warmth', 3);
    expect(store.getState().mode).toBe('automatic');
    expect(store.getState().custom).toEqual(DEFAULT_CUSTOM_SETTINGS);
    expect(notices).toEqual([NOTICES.unlimitedRequired, NOTICES.unlimitedRequired]);
    expect(changes()).toBe(0);
  });

  it("controls: the loudness target is the chosen one, the preset's own by default", () => {
    const { store } = storeFor(user('unlimited'));
    expect(store.controls.targetLufs()).toBe(-14);
    store.controls.setTarget('club');
    expect(store.getState().target).toBe('club');
    expect(store.controls.targetLufs()).toBe(-9);
    expect(store.controls.renderChoice()).toMatchObject({ targetLufs: -9, tone: { preset: 'balanced' } });
  });

  it('source and reference: a file of the wrong type is refused with the spec notice', async () => {
    const { store, notices, changes } = storeFor(user('unlimited'));
    await store.source.loadFile(file('notes.txt', 'text/plain'));
    await store.reference.loadReference(file('notes.txt', 'text/plain'));
    expect(notices).toEqual([NOTICES.invalidFile, NOTICES.invalidFile]);
    expect(changes()).toBe(0);
  });

  it('reference: a Pro user cannot load one', async () => {
    const { store, notices } = storeFor(user('pro'));
    await store.reference.loadReference(file('ref.wav', 'audio/wav'));
    expect(notices).toEqual([NOTICES.unlimitedRequired]);
    expect(store.getState().reference).toBeNull();
  });

  it('mastering and playback: nothing loaded, nothing mastered, each says so', async () => {
    const { store, notices } = storeFor(user('unlimited'));
    await store.mastering.master();
    await store.playback.playOriginal();
    await store.playback.playMastered();
    await store.playback.playAs({ kind: 'master' });
    expect(notices).toEqual([
      NOTICES.noAudioLoaded,
      NOTICES.noAudioLoaded,
      NOTICES.noMasteredAudio('Balanced'),
      NOTICES.noMasteredAudio('Balanced'),
    ]);
  });

  it('playback: the A/B switch and the volume are the store state', () => {
    const { store } = storeFor(null);
    store.playback.toggleListen();
    expect(store.getState().listen).toBe('original');
    store.playback.toggleListen();
    expect(store.getState().listen).toBe('master');
    store.playback.setVolume(40);
    expect(store.getState().volume).toBe(40);
  });

  it('vocal space waits for stems; clear resets every panel but keeps the setup', () => {
    const { store } = storeFor(user('unlimited'));
    store.vocalSpace.setAmount(50);
    expect(store.getState().vocalSpace.amount).toBe(0);
    store.controls.setPreset('loud');
    store.playback.toggleListen();
    store.clear();
    expect(store.getState()).toMatchObject({ preset: 'loud', listen: 'master', source: null, results: {} });
  });
});
