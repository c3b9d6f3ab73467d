/**
 * CPU time of the vocal-space carve alone (VocalSpaceProcessor in the render's 4096-frame blocks) over a
 * dense stereo beat and a vocal that sings most of the time, with the WebAssembly kernel and with the
 * JavaScript, and whether they give the same samples:
 *   npx tsx bench/carve-kernel-times.ts [seconds=240] [runs=3]
 */
import { createHash } from 'node:crypto';
import { analyseVocalSpace, VocalSpaceProcessor } from '../src/audio/dsp/vocal-space';
import { setWasmKernels } from '../src/audio/dsp/wasm/simd-kernels';

const seconds = Number(process.argv[2] ?? 240);
const runs = Number(process.argv[3] ?? 3);
const RATE = 44100;
const n = Math.round(seconds * RATE);
const beat = [0, 1].map((c) =>
  Float32Array.from(
    { length: n },
    (_, i) => 0.3 * Math.sin(i * (0.05 + 0.01 * c)) + 0.2 * Math.sin(i * 0.37),
  ),
);
const vocal = [
  Float32Array.from({ length: n }, (_, i) => (i % 30000 < 22000 ? 0.2 * Math.sin(i * 0.27) : 0)),
];
const profile = analyseVocalSpace(vocal, RATE);

for (let run = 0; run < runs; run++)
  for (const wasm of [true, false]) {
    setWasmKernels(wasm);
    const out = beat.map((c) => c.slice());
    const p = new VocalSpaceProcessor(RATE, 2, profile, 80);
    const cpu = process.cpuUsage();
    for (let at = 0; at < n; at += 4096) p.process(out, vocal, at, Math.min(n, at + 4096));
    const used = process.cpuUsage(cpu);
    const hash = createHash('sha256');
    for (const c of out) hash.update(new Uint8Array(c.buffer));
    console.log(
      `${wasm ? 'wasm' : 'js  '} CPU ${((used.user + used.system) / 1000).toFixed(0)} ms; output ${hash.digest('hex').slice(0, 16)}`,
    );
  }
