/**
 * Issue 18's null test: a real beat (Debian's asc-music) and a spoken vocal (espeak-ng) mixed by the mixer's
 * renderer with its stems, the Main mastered with its gains recorded, every version mastered with them
 * replayed. Main − (Instrumental + A cappella) must sit at least 40 dB under the Main (it is float rounding);
 * the versions keep the Main's length; every version ends at or under the ceiling, and where the safety
 * limiter acted the test prints by how much.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS, type PresetId, TRUE_PEAK_CEILING_DBTP } from '../../shared/mastering';
import type { TimelineClip } from '../model/clip';
import { renderMix } from '../render/mix-render';
import { measureLoudness } from './loudness';
import { MIX_VERSIONS, masterVersions, renderSharedGains, residualDb, versionInput } from './master-versions';
import { type MasterTrace, renderMaster } from './mastering-chain';
import { dynamicsTraceFor } from './mastering-processor';
import { decodeWithFfmpeg } from './node-tools.test-helper';

const SR = 44_100;
const SECONDS = 30;
const BEAT = '/usr/share/games/asc/music/time_to_strike.mp3';

const spokenVocal = async (): Promise<Float32Array[] | null> => {
  const child = (await import('node:child_process' as string)) as typeof import('node:child_process');
  const fs = (await import('node:fs' as string)) as typeof import('node:fs');
  const os = (await import('node:os' as string)) as typeof import('node:os');
  const dir = fs.mkdtempSync(`${os.tmpdir()}/vocal-`);
  try {
    const text =
      'Master your mix. The versions line up sample for sample, and the vocal sits in the beat. '.repeat(4);
    const run = child.spawnSync('espeak-ng', ['-s', '150', '-w', `${dir}/v.wav`, text]);
    if (run.status !== 0) return null;
    return await decodeWithFfmpeg(`${dir}/v.wav`, SR);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

const trim = (channels: Float32Array[], frames: number) => channels.map((c) => c.slice(0, frames));

const fullClip = (trackType: 'vocals' | 'instrumental', length: number, position = 0): TimelineClip => ({
  id: `${trackType}-clip`,
  trackType,
  sourceStart: 0,
  sourceEnd: length,
  position,
});

describe('versions of a master share its gains', { timeout: 300_000 }, () => {
  it.each<[PresetId, boolean]>([
    ['balanced', true],
    ['loud', false],
  ])('%s (adaptive %s): Instrumental + A cappella nulls against the Main', async (preset, adaptive) => {
    const beat = await decodeWithFfmpeg(BEAT, SR);
    const voice = await spokenVocal();
    expect(beat, `${BEAT} (asc-music) and ffmpeg are needed`).not.toBeNull();
    expect(voice, 'espeak-ng is needed').not.toBeNull();
    const length = SECONDS * SR;
    const vocals = { channels: trim(voice!, Math.min(voice![0]!.length, length - SR)), sampleRate: SR };
    const instrumental = { channels: trim(beat!, length), sampleRate: SR };
    const mix = await renderMix(
      {
        vocals,
        instrumental,
        clips: [
          fullClip('vocals', vocals.channels[0]!.length, SR),
          fullClip('instrumental', instrumental.channels[0]!.length),
        ],
        sampleRate: SR,
        length,
      },
      { vocalShare: 75, outputVolume: 90 },
      { stems: true },
    );
    const stems = mix.stems!;
    // The mixer's stems carry its output limiter's gain: they sum to the mix.
    expect(residualDb(mix.channels, [stems.vocals, stems.instrumental])).toBeLessThan(-100);

    const { settings, targetLufs } = PRESETS[preset];
    const tone = adaptive ? { preset } : undefined;
    const result = await masterVersions(
      stems,
      MIX_VERSIONS,
      SR,
      { settings, targetLufs, tone },
      { yieldFn: async () => {} },
    );
    const main = result.channels.main!;

    // The linear part alone (no safety limiter): the shared gains make the chain linear in the signal.
    const trace: MasterTrace = { dynamics: dynamicsTraceFor(length) };
    const again = versionInput('main', stems);
    await renderMaster(again, SR, { settings, targetLufs, tone, trace }, { yieldFn: async () => {} });
    const shared = { settings, adaptive: result.report.adaptive, ceilingDb: TRUE_PEAK_CEILING_DBTP };
    const parts = [versionInput('instrumental', stems), versionInput('acappella', stems)];
    for (const part of parts) await renderSharedGains(part, SR, shared, trace);
    const linear = residualDb(again, parts);

    const rows = result.versions.map(
      (r) =>
        `${r.version}: ${r.sharedTruePeakDb.toFixed(2)} dBTP under the Main's gains, safety limiter ${r.safetyGainDb.toFixed(2)} dB, delivered ${r.truePeakDb.toFixed(2)} dBTP`,
    );
    const mainLufs = measureLoudness(main, SR, { truePeak: false }).integratedLufs;
    console.log(
      `[versions] ${preset} (${adaptive ? 'adaptive, multiband' : 'spec chain, single band'}): ` +
        `Main planned ${result.report.predictedLufs.toFixed(2)} LUFS, delivered ${mainLufs.toFixed(2)} LUFS, limiter ${result.report.limiterMinGainDb.toFixed(2)} dB\n` +
        `  residual Main − (Instrumental + A cappella), shared gains only: ${linear.toFixed(1)} dB under the Main's RMS\n` +
        `  residual as delivered (linked safety limiter): ${result.residualDb!.toFixed(1)} dB\n  ${rows.join('\n  ')}`,
    );
    expect(linear).toBeLessThanOrEqual(-40);
    expect(result.residualDb!).toBeLessThanOrEqual(-40);
    expect(Math.abs(mainLufs - targetLufs)).toBeLessThan(0.5);
    for (const version of MIX_VERSIONS) {
      expect(result.channels[version]![0]!.length).toBe(length);
    }
    for (const r of result.versions) expect(r.truePeakDb).toBeLessThanOrEqual(TRUE_PEAK_CEILING_DBTP + 0.05);

    // Without the shared gains the versions would not null: the Instrumental mastered on its own is far off.
    const alone = versionInput('instrumental', stems);
    await renderMaster(alone, SR, { settings, targetLufs, tone }, { yieldFn: async () => {} });
    const naive = residualDb(main, [alone, result.channels.acappella!]);
    console.log(`  (the Instrumental mastered on its own instead: residual ${naive.toFixed(1)} dB)`);
    expect(naive).toBeGreaterThan(linear + 20);
  });
});
