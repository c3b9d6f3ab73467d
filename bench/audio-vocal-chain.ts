/**
 * Issue 26's adaptive vocal chain against ffmpeg's filters doing the same jobs, on the same file, in paired
 * rounds (bench/paired-rounds.ts):
 *   npx tsx bench/audio-vocal-chain.ts          (a 4-minute take)
 *   npx tsx bench/audio-vocal-chain.ts 60       (other lengths, seconds)
 * Material: issue 26's dirty take (espeak-ng s-heavy speech, one sentence 8 dB quieter, hiss at -50 dBFS,
 * breaths) tiled to the length, over an instrumental below the voice's bands. Rows: the whole mixdown with
 * the chain, from the analysis made when the vocal loads (the worker keeps it; its own row), against an ffmpeg graph of the same stages (afftdn, speechnorm, equalizer
 * bands, deesser, acompressor, aecho, the instrumental's path, alimiter); and the noise reduction, the
 * de-esser and the rider alone against afftdn, deesser and dynaudnorm. Ours runs in Node on the same TS
 * code the mix worker runs (V8 both), single-threaded; ffmpeg with -filter_threads 1. The main-thread stall
 * of the worker is the mixdown benchmark's (bench/audio-mix.ts) to measure: there is no page here.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeWav } from '../src/audio/codecs/wav-encoder';
import { analyseVocal } from '../src/audio/dsp/vocal/analyse-vocal';
import { denoiseInPlace } from '../src/audio/dsp/vocal/denoise';
import { dirtyTake } from '../src/audio/dsp/vocal/dirty-take.test-helper';
import { DynamicBand } from '../src/audio/dsp/vocal/dynamic-band';
import { applyRide, rideCurve } from '../src/audio/dsp/vocal/rider';
import { vocalChainPlan } from '../src/audio/dsp/vocal/vocal-chain';
import { renderMix } from '../src/audio/render/mix-render';
import { type BenchRow, printTable, timeCommand } from './audio-encode-table';
import { fmtRatio, label, pairedRounds, printEnvironment, spread } from './paired-rounds';

const lengths = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const SECONDS = lengths.length ? lengths : [240];
const SR = 44_100;

const tile = (x: Float32Array, n: number) => {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i += x.length) out.set(x.subarray(0, Math.min(x.length, n - i)), i);
  return out;
};

const take = await dirtyTake(SR);
if (!take) throw new Error('espeak-ng and ffmpeg are needed');
const dir = mkdtempSync(join(tmpdir(), 'bench-vocal-chain-'));
printEnvironment(undefined);
const rows: BenchRow[] = [];
const ff = (args: string[]) => () =>
  timeCommand('/usr/bin/ffmpeg', ['-v', 'error', '-y', '-filter_threads', '1', ...args]);
const timed = (fn: () => unknown) => async () => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};

/**
 * The CPU time each side used, beside the wall time: on a machine whose cores are shared with other jobs
 * the wall times say as much about the neighbours as about the work (decision 270). Ours from the process's
 * own usage (user + system, all its threads), ffmpeg's from /usr/bin/time.
 */
const cpuTimed = (fn: () => unknown, into: number[]) => async () => {
  const start = performance.now();
  const cpu = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(cpu);
  into.push((used.user + used.system) / 1000);
  return performance.now() - start;
};
const ffCpu = (args: string[], into: number[]) => () => {
  const start = performance.now();
  const r = spawnSync(
    '/usr/bin/time',
    ['-f', '%U %S', '/usr/bin/ffmpeg', '-v', 'error', '-y', '-filter_threads', '1', ...args],
    { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 },
  );
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr?.toString().slice(0, 500)}`);
  const [user, sys] = r.stderr.toString().trim().split('\n').at(-1)!.split(' ').map(Number);
  into.push(1000 * (user! + sys!));
  return ms;
};

try {
  for (const seconds of SECONDS) {
    const n = Math.round(seconds * SR);
    const vocal = tile(take.vocal, n);
    const inst = take.instrumental.map((c) => tile(c, n)) as [Float32Array, Float32Array];
    const vocalWav = join(dir, 'vocal.wav');
    const instWav = join(dir, 'inst.wav');
    const out = join(dir, 'out.raw');
    writeFileSync(vocalWav, Buffer.concat(encodeWav([vocal], SR, { dither: false, maxBytes: Infinity })));
    writeFileSync(instWav, Buffer.concat(encodeWav(inst, SR, { dither: false, maxBytes: Infinity })));
    const track = `${label(seconds)} take`;
    const raw = ['-f', 'f32le', '-c:a', 'pcm_f32le', out];

    // The whole mixdown. The analysis is made when the vocal loads (the page asks the worker, which keeps it
    // for the mixdown), so the mixdown row starts from it and the analysis has its own row below.
    const analysis = analyseVocal([vocal], SR, 'pop');
    const input = {
      vocals: { channels: [vocal], sampleRate: SR },
      instrumental: { channels: inst, sampleRate: SR },
      clips: [
        { id: 'v', trackType: 'vocals' as const, sourceStart: 0, sourceEnd: n, position: 0 },
        { id: 'i', trackType: 'instrumental' as const, sourceStart: 0, sourceEnd: n, position: 0 },
      ],
      sampleRate: SR,
      length: n,
      tempoBpm: 100,
      vocalAnalysis: analysis,
    };
    const graph = [
      '[0:a]afftdn=nr=18:nf=-50,highpass=f=80,speechnorm=e=4:r=0.0005:l=1,',
      'equalizer=f=250:t=q:w=1.2:g=-1.5,equalizer=f=550:t=q:w=1.2:g=-3.5,equalizer=f=12000:t=q:w=0.7:g=4,',
      'deesser=i=0.5:m=0.5:f=0.5,acompressor=threshold=0.1:ratio=3.6:attack=4:release=90,',
      'aecho=0.8:0.5:450|40:0.2|0.15,pan=stereo|c0=c0|c1=c0[v];',
      '[1:a]equalizer=f=2500:t=q:w=0.8:g=-2.5[i];',
      '[v][i]amix=inputs=2:normalize=0,alimiter=limit=0.89:level=0',
    ].join('');
    const oursCpu: number[] = [];
    const ffmpegCpu: number[] = [];
    const mixdown = await paired(
      cpuTimed(() => renderMix(input, { vocalShare: 50, outputVolume: 100, genre: 'pop' }), oursCpu),
      ffCpu(['-i', vocalWav, '-i', instWav, '-filter_complex', graph, ...raw], ffmpegCpu),
    );
    const cpuRatio = fmtRatio(spread(oursCpu.map((c, i) => c / ffmpegCpu[i]!)));
    rows.push({
      job: 'mixdown, adaptive vocal chain',
      track,
      ...mixdown,
      reference: 'ffmpeg afftdn+speechnorm+eq+deesser+acompressor+aecho+alimiter',
      target: 1.0,
      note: `Node, one thread; analysis in its own row; CPU time ratio per round ${cpuRatio}`,
    });

    const plan = vocalChainPlan(analysis, 'pop', undefined);
    rows.push({
      job: 'noise reduction (cleanup)',
      track,
      ...(await paired(
        timed(() => denoiseInPlace(Float32Array.from(vocal), analysis.noisePrint, { maxReductionDb: 18 })),
        ff(['-i', vocalWav, '-af', 'afftdn=nr=18:nf=-50', ...raw]),
      )),
      reference: 'ffmpeg afftdn',
    });
    rows.push({
      job: 'de-esser (split band)',
      track,
      ...(await paired(
        timed(() => new DynamicBand(SR, plan.deEsser!).process(Float32Array.from(vocal), 0, n)),
        ff(['-i', vocalWav, '-af', 'deesser', ...raw]),
      )),
      reference: 'ffmpeg deesser',
    });
    rows.push({
      job: 'level riding',
      track,
      ...(await paired(
        timed(() => applyRide(Float32Array.from(vocal), rideCurve(analysis, plan.ride), SR, 0, n)),
        ff(['-i', vocalWav, '-af', 'dynaudnorm', ...raw]),
      )),
      reference: 'ffmpeg dynaudnorm',
    });
    rows.push({
      job: 'vocal analysis',
      track,
      ...(await paired(
        timed(() => analyseVocal([vocal], SR, 'pop')),
        ff(['-i', vocalWav, '-af', 'astats=metadata=0,aspectralstats', '-f', 'null', '-']),
      )),
      reference: 'ffmpeg astats+aspectralstats',
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
printTable('Adaptive vocal chain (issue 26) against ffmpeg, same file, paired rounds', rows);

async function paired(ours: () => Promise<number>, reference: () => number) {
  const p = await pairedRounds(ours, reference);
  return { ours: p.ours, paired: p };
}
