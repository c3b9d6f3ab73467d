/**
 * Balanced's loudness range, input -> output, on generated material and on real produced music from
 * Debian's game-music packages (asc-music, hyperrogue-music; skipped where not installed), with each
 * input's PLR and the limiter's deepest gain reduction: the data behind the LRA rule (decision 116).
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../shared/mastering';
import { measureLoudness } from './loudness';
import { renderMaster } from './mastering-chain';
import { sectionedNoise } from './mastering-checks.test-helper';
import { MasteringProcessor } from './mastering-processor';
import { decodeWithFfmpeg } from './node-tools.test-helper';
import { musicLike } from './test-signals';

const RATE = 44100;
const immediate = () => Promise.resolve();

const REAL = [
  '/usr/share/games/asc/music/frontiers.mp3',
  '/usr/share/games/asc/music/machine_wars.mp3',
  '/usr/share/games/asc/music/time_to_strike.mp3',
  ...[
    'caves',
    'crossroads',
    'desert',
    'graveyard',
    'hell',
    'icyland',
    'jungle',
    'laboratory',
    'mirror',
    'motion',
    'rlyeh',
  ].map((n) => `/usr/share/hyperrogue/music/hr3-${n}.ogg`),
  '/usr/share/hyperrogue/music/hr-domina-hunting.ogg',
  '/usr/share/hyperrogue/music/hr-domina-mountain.ogg',
];

interface Row {
  name: string;
  lraIn: number;
  plrIn: number;
  lraOut: number;
  lraChain: number;
  limiterDb: number;
}

const measure = async (name: string, source: Float32Array[]): Promise<Row> => {
  const input = measureLoudness(source, RATE);
  const channels = source.map((c) => c.slice());
  const report = await renderMaster(
    channels,
    RATE,
    {
      settings: PRESETS.balanced.settings,
      targetLufs: PRESETS.balanced.targetLufs,
      tone: { preset: 'balanced' },
    },
    { yieldFn: immediate },
  );
  const out = measureLoudness(channels, RATE, { truePeak: false });
  // The same processing without the limiter (LRA does not depend on the static gain).
  const unlimited = source.map((c) => c.slice());
  new MasteringProcessor(RATE, 2, PRESETS.balanced.settings, report.adaptive).process(
    unlimited,
    0,
    unlimited[0]!.length,
  );
  const beforeLimiter = measureLoudness(unlimited, RATE, { truePeak: false });
  return {
    name,
    lraIn: input.loudnessRangeLu,
    plrIn: input.truePeakDbtp - input.integratedLufs,
    lraOut: out.loudnessRangeLu,
    lraChain: beforeLimiter.loudnessRangeLu,
    limiterDb: report.limiterMinGainDb,
  };
};

describe('Balanced: loudness range in -> out (the LRA rule, decision 116)', { timeout: 900_000 }, () => {
  it('the processing keeps >= 70 % of the input LRA everywhere; the whole master on real music and unless the limiter must cut peaks that rise with the sections', async () => {
    const generated: Row[] = [];
    for (const g of [-6, 0, 8]) generated.push(await measure(`sectioned ${g} dB`, sectionedNoise(RATE, g)));
    for (const seed of [1, 2, 3])
      generated.push(await measure(`pop seed ${seed}`, musicLike({ seconds: 64, seed })));
    const real: Row[] = [];
    for (const path of REAL) {
      const source = await decodeWithFfmpeg(path, RATE);
      if (source) real.push(await measure(path.split('/').at(-1)!, source));
    }
    const rows = [...generated, ...real];
    const pct = (v: number, of: number) => `${((100 * v) / of).toFixed(0)} %`;
    console.log(
      `[lra] Balanced, ${real.length} real tracks\n${rows
        .map(
          (r) =>
            `  ${r.name.padEnd(24)} LRA ${r.lraIn.toFixed(2)} -> ${r.lraOut.toFixed(2)} LU (${pct(r.lraOut, r.lraIn)}), before the limiter ${r.lraChain.toFixed(2)} (${pct(r.lraChain, r.lraIn)}); PLR ${r.plrIn.toFixed(1)} dB, limiter ${r.limiterDb.toFixed(1)} dB`,
        )
        .join('\n')}`,
    );
    for (const r of rows) {
      if (r.lraIn > 8) continue;
      // What the EQ, the multiband compression and the width do: the rule's first half, on every signal.
      expect(r.lraChain, r.name).toBeGreaterThanOrEqual(0.7 * r.lraIn);
      // A gain that lowers every 3 s window by 0..G dB cannot narrow the range by more than G.
      expect(r.lraChain - r.lraOut, r.name).toBeLessThanOrEqual(-r.limiterDb + 0.1);
    }
    // The whole master: real produced music (its peaks do not rise with its sections) and the sectioned noise.
    for (const r of [...generated.slice(0, 3), ...real])
      if (r.lraIn <= 8) expect(r.lraOut, r.name).toBeGreaterThanOrEqual(0.7 * r.lraIn);
    // The exception, measured: the generated pop scales every instrument, kick included, 6 dB between its
    // sections, so the 7 dB the ceiling forces off its chorus kicks comes off the chorus only.
    for (const r of generated.slice(3)) {
      expect(r.lraChain).toBeGreaterThanOrEqual(0.95 * r.lraIn);
      expect(r.limiterDb).toBeLessThan(-r.lraIn);
    }
  });
});
