/**
 * Four concurrent 100 MB uploads (four users, one server process) over real HTTP on loopback, to local disk
 * and to S3 (a real s3rver on 127.0.0.1): aggregate throughput and the server's exact peak RSS.
 *
 *   node --import tsx bench/upload-concurrent.ts        (npm run bench -- upload-concurrent)
 *   node --import tsx bench/upload-concurrent.ts disk   (one storage only)
 *
 * Peak RSS is the kernel's high-water mark (VmHWM), reset through /proc/<pid>/clear_refs after a warm-up
 * upload, so the figure is the true peak during the four uploads, not a sample.
 */
import fs from 'node:fs';
import {
  httpUpload,
  multipart,
  streamedWavUpload,
  wavBytes,
} from '../src/server/modules/tracks/test-uploads';
import { startS3Peer } from '../src/server/storage/s3rver-peer';
import { MAX_TRACK_BYTES } from '../src/shared/api/tracks';
import { registerUser, startServerProcess, tempDir } from '../tests/helpers/server-processes';
import { fmt, loadAverage } from './load-common';

const MB = 1024 * 1024;
const UPLOADS = 4;
const only = process.argv.slice(2);

const procKb = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(
    new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1],
  ) * 1024;

async function run(label: string, env: Record<string, string>) {
  const dataDir = tempDir(`upload-conc-${label}`);
  const server = await startServerProcess(`upload-${label}`, {
    DATA_DIR: dataDir,
    AUTH_RATE_LIMIT: '1000',
    ...env,
  });
  const pid = server.child.pid!;
  try {
    const users = await Promise.all(
      Array.from({ length: UPLOADS }, (_, i) => registerUser(server.origin, `studio${i}@example.test`)),
    );
    const warm = multipart([
      { name: 'type', value: 'vocals' },
      { name: 'name', value: 'warm-up' },
      { name: 'audio', filename: 'w.wav', contentType: 'audio/wav', data: wavBytes({ seconds: 2 }) },
    ]);
    const { Readable } = await import('node:stream');
    await httpUpload(
      `${server.origin}/api/tracks`,
      { ...warm.headers, 'content-length': String(warm.payload.length), 'x-auth-token': users[0]!.token },
      Readable.from([warm.payload]),
    );
    const rssBefore = procKb(pid, 'VmRSS');
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    // Each file exactly at the 100 MB limit: WAV header + data.
    const dataBytes = MAX_TRACK_BYTES - 44;
    const started = performance.now();
    const results = await Promise.all(
      users.map((u, i) => {
        const body = streamedWavUpload(dataBytes, { type: 'vocals', name: `big ${i}` });
        return httpUpload(
          `${server.origin}/api/tracks`,
          { ...body.headers, 'x-auth-token': u.token },
          body.stream(),
        );
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const peak = procKb(pid, 'VmHWM');
    const ok = results.filter((r) => r.status === 201).length;
    const totalMb = (UPLOADS * MAX_TRACK_BYTES) / MB;
    console.log(
      `${label.padEnd(6)} ${String(ok).padStart(3)}/${UPLOADS} ${fmt(totalMb).padStart(7)} MB ${fmt(seconds, 1).padStart(7)} s ${fmt(totalMb / seconds, 1).padStart(9)} MB/s ${fmt(rssBefore / MB).padStart(8)} MB ${fmt(peak / MB).padStart(8)} MB ${fmt((peak - rssBefore) / MB).padStart(8)} MB`,
    );
    if (ok !== UPLOADS) {
      console.log(`  ✗ answers: ${results.map((r) => r.status).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `${UPLOADS} concurrent uploads of 100 MB, one server process on PGlite; load average: ${loadAverage()}`,
);
console.log(
  `${'store'.padEnd(6)} ${'ok'.padStart(7)} ${'total'.padStart(10)} ${'time'.padStart(9)} ${'throughput'.padStart(14)} ${'RSS before'.padStart(11)} ${'peak RSS'.padStart(11)} ${'growth'.padStart(11)}`,
);
if (!only.length || only.includes('disk')) await run('disk', {});
if (!only.length || only.includes('s3')) {
  const s3 = await startS3Peer('upload-concurrent');
  try {
    await run('s3', s3.env);
  } finally {
    await s3.close();
  }
}
console.log(`load average after: ${loadAverage()}`);
