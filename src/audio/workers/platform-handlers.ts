/** The platform-preview worker's handlers, apart from the worker entry so tests can serve them on a port. */
import { limitOffline } from '../dsp/limiter';
import { LoudnessMeter } from '../dsp/loudness';
import { SPOTIFY_LOUD_LIMITER } from '../dsp/platform-loudness';
import { throttleProgress, yieldEvery } from './encode-yield';
import type { PlatformApi } from './platform-protocol';
import { buffersOf, type RpcHandlers, throwIfAborted, transferring } from './worker-rpc';

/** Frames per measuring step between event-loop turns. */
const STEP = 1 << 17;

export const createPlatformHandlers = (): RpcHandlers<PlatformApi> => ({
  spotifyLoud: async ({ channels, sampleRate, gainDb }, { signal, progress }) => {
    const report = throttleProgress(progress, (f) => f >= 1);
    const frames = channels[0]?.length ?? 0;
    if (channels.length === 0 || frames === 0) throw new RangeError('Invalid or empty audio buffer');
    // Our lookahead limiter stands in for Spotify's (decision 125): its ceiling at Spotify's -1 dB, the
    // 5 ms attack as the lookahead and the 100 ms decay as the release.
    limitOffline(
      channels,
      sampleRate,
      10 ** (gainDb / 20),
      {
        ceilingDb: SPOTIFY_LOUD_LIMITER.ceilingDb,
        lookaheadMs: SPOTIFY_LOUD_LIMITER.attackMs,
        releaseMs: SPOTIFY_LOUD_LIMITER.releaseMs,
      },
      (done) => report((0.6 * done) / frames),
    );
    throwIfAborted(signal);
    const meter = new LoudnessMeter(sampleRate, channels.length);
    const pause = yieldEvery();
    for (let start = 0; start < frames; start += STEP) {
      const end = Math.min(frames, start + STEP);
      meter.push(channels, start, end);
      report(0.6 + (0.4 * end) / frames);
      await pause();
      throwIfAborted(signal);
    }
    return transferring({ channels, loudness: meter.report() }, buffersOf(channels));
  },
});
