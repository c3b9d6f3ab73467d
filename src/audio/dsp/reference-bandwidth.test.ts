/**
 * Reference honesty (issue 30, decision 243): a band-limited reference (lame's low-pass, an MP3 from the
 * machine's asc-music package) is detected, and its empty top bands no longer pull the master's highs down.
 */
import { describe, expect, it } from 'vitest';
import { adaptivePlanFor } from './adaptive-plan';
import { decodeWithFfmpeg, floatWav, loadNodeTools } from './node-tools.test-helper';
import { referenceBandwidth } from './reference-bandwidth';
import { shapedNoise } from './test-signals';
import { bandResponseDb } from './tone-eq';
import { analyseTrack, THIRD_OCTAVE_CENTRES } from './track-analysis';

const RATE = 44100;

/** The channels through lame at a bitrate and low-pass (kHz), decoded back by ffmpeg. */
const throughLame = async (channels: Float32Array[], kbps: number, lowpassKhz: number) => {
  const { child, fs, tmp } = await loadNodeTools();
  const dir = fs.mkdtempSync(`${tmp}/lame-`);
  try {
    fs.writeFileSync(`${dir}/in.wav`, floatWav(channels, RATE));
    // lame reads 16-bit PCM; ffmpeg makes it from the float WAV first.
    child.spawnSync('ffmpeg', ['-v', 'error', '-i', `${dir}/in.wav`, '-c:a', 'pcm_s16le', `${dir}/s16.wav`], {
      encoding: 'utf8',
    });
    const args = [
      '--quiet',
      '-b',
      String(kbps),
      '--lowpass',
      String(lowpassKhz),
      `${dir}/s16.wav`,
      `${dir}/o.mp3`,
    ];
    const run = child.spawnSync('lame', args, { encoding: 'utf8' });
    expect(run.status).toBe(0);
    return (await decodeWithFfmpeg(`${dir}/o.mp3`, RATE))!;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

const band = (hz: number) => THIRD_OCTAVE_CENTRES.findIndex((c) => Math.abs(c / hz - 1) < 0.05);
// Pink-ish, like a mix: -3 dB/octave above 100 Hz.
const pinkish = (seed: number) =>
  shapedNoise({ seed, shapeDb: (hz) => -3 * Math.log2(Math.max(hz, 100) / 100), rmsDb: -18 });

describe('reference bandwidth', { timeout: 120_000 }, () => {
  it('finds a lame low-pass at 11 kHz and leaves a full-band reference and a 16 kHz one alone', async () => {
    const full = pinkish(3);
    expect(referenceBandwidth(analyseTrack(full, RATE).midDb).cutoffHz).toBeNull();
    const cut11 = referenceBandwidth(analyseTrack(await throughLame(full, 96, 11), RATE).midDb);
    expect(cut11.cutoffHz).toBeGreaterThan(9000);
    expect(cut11.cutoffHz).toBeLessThan(12_000);
    expect(cut11.firstLeftOut).toBe(band(10_000));
    // A 16 kHz low-pass ends inside the top band (14-18 kHz): nothing falls off a cliff there.
    const cut16 = referenceBandwidth(analyseTrack(await throughLame(full, 128, 16), RATE).midDb);
    expect(cut16.firstLeftOut === null || THIRD_OCTAVE_CENTRES[cut16.firstLeftOut]! > 15_000).toBe(true);
  });

  it('a band-limited reference no longer cuts the master above its cut-off', async () => {
    const track = pinkish(5);
    const analysis = analyseTrack(track, RATE);
    const reference = pinkish(6);
    const fullRef = analyseTrack(reference, RATE);
    const lossyRef = analyseTrack(await throughLame(reference, 64, 11), RATE);
    const responseAt = (ref: typeof fullRef, hz: number) => {
      const plan = adaptivePlanFor(analysis, 2, { preset: 'balanced', toneMatch: 100, reference: ref });
      return bandResponseDb(plan.toneEqDb, THIRD_OCTAVE_CENTRES, RATE, plan.eqGrid)[band(hz)]!;
    };
    const full = responseAt(fullRef, 12_600);
    const lossy = responseAt(lossyRef, 12_600);
    // Same-shaped track and reference: the full-band match barely touches 12.5 kHz, and neither does the
    // match against the MP3 (before decision 243 its empty band asked for the 12 dB limit).
    console.log(
      `12.5 kHz EQ: full-band reference ${full.toFixed(2)} dB, 11 kHz MP3 reference ${lossy.toFixed(2)} dB`,
    );
    expect(Math.abs(full)).toBeLessThan(1.5);
    expect(Math.abs(lossy - full)).toBeLessThan(1.5);
  });

  it('real material: an asc-music MP3 that stops at 11 kHz is found, a hyperrogue Vorbis track is not', async () => {
    const mp3 = await decodeWithFfmpeg('/usr/share/games/asc/music/frontiers.mp3', RATE);
    const ogg = await decodeWithFfmpeg('/usr/share/hyperrogue/music/hr3-crossroads.ogg', RATE);
    if (!mp3 || !ogg) return; // the Debian music packages are not on this machine
    const seconds = (c: Float32Array[]) => c.map((x) => x.subarray(RATE * 5, RATE * 35));
    const asc = referenceBandwidth(analyseTrack(seconds(mp3), RATE).midDb);
    console.log(`frontiers.mp3 cut-off ≈ ${asc.cutoffHz?.toFixed(0)} Hz`);
    expect(asc.cutoffHz).toBeGreaterThan(9000);
    expect(asc.cutoffHz).toBeLessThan(12_000);
    expect(referenceBandwidth(analyseTrack(seconds(ogg), RATE).midDb).cutoffHz).toBeNull();
  });
});
