/**
 * Upload benchmark (issue 5): one 100 MB WAV streamed to POST /api/tracks over real HTTP, on local disk and
 * on S3 (a real s3rver on 127.0.0.1, in this process), reporting throughput and the server's peak RSS growth.
 *
 *   node --import tsx bench/upload-memory.bench.ts          (npm run bench -- upload)
 *   node --import tsx bench/upload-memory.bench.ts disk     (one storage only)
 *
 * The server runs in a child process. Its peak RSS is the kernel's own high-water mark (VmHWM in
 * /proc/<pid>/status), reset through /proc/<pid>/clear_refs after a warm-up upload, so the figure is the
 * exact peak during the measured upload, not a sample. Growth = peak - RSS just before the upload.
 * Target: growth under 64 MB, whatever the file size (the file is streamed, never held whole).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  httpUpload,
  multipart,
  streamedWavUpload,
  wavBytes,
} from '../src/server/modules/tracks/test-uploads';
import { startS3Peer } from '../src/server/storage/s3rver-peer';
import { MAX_TRACK_BYTES } from '../src/shared/api/tracks';

const TARGET_MB = 64;
const MB = 1024 * 1024;
const only = process.argv.slice(2);

function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no ${field} for ${pid}`);
  return Number(m[1]) * 1024;
}

async function run(label: string, env: Record<string, string>) {
  const server = fork(fileURLToPath(new URL('./upload-server.ts', import.meta.url)), [JSON.stringify(env)], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('message', (m: { port: number }) => resolve(m.port));
    server.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    const reg = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.test', password: 'correct horse battery' }),
    });
    const { authToken } = (await reg.json()) as { authToken: string };
    const auth = { 'x-auth-token': authToken };

    // Warm-up: the whole path once with a small file (JIT, lazy modules, the S3 client's first connection).
    const small = multipart([
      { name: 'audio', filename: 'w.wav', contentType: 'audio/wav', data: wavBytes({ seconds: 2 }) },
      { name: 'type', value: 'vocals' },
      { name: 'name', value: 'warm-up' },
    ]);
    const warm = await fetch(`${base}/api/tracks`, {
      method: 'POST',
      headers: { ...small.headers, ...auth },
      body: new Uint8Array(small.payload),
    });
    if (warm.status !== 201) throw new Error(`warm-up upload failed: ${warm.status} ${await warm.text()}`);

    const upload = streamedWavUpload(MAX_TRACK_BYTES - 44, {
      type: 'vocals',
      name: 'bench 100 MB',
      duration: '0',
    });
    fs.writeFileSync(`/proc/${server.pid}/clear_refs`, '5'); // reset the peak-RSS high-water mark
    const rssBefore = procStatus(server.pid!, 'VmRSS');
    const started = performance.now();
    const res = await httpUpload(`${base}/api/tracks`, { ...upload.headers, ...auth }, upload.stream());
    const seconds = (performance.now() - started) / 1000;
    if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
    const peak = procStatus(server.pid!, 'VmHWM');
    return {
      storage: label,
      file: `${(upload.fileBytes / MB).toFixed(0)} MB`,
      seconds: seconds.toFixed(2),
      'MB/s': (upload.fileBytes / MB / seconds).toFixed(1),
      'RSS before': `${(rssBefore / MB).toFixed(0)} MB`,
      'peak RSS': `${(peak / MB).toFixed(0)} MB`,
      'peak growth': `${((peak - rssBefore) / MB).toFixed(1)} MB`,
      verdict: peak - rssBefore < TARGET_MB * MB ? `ok (< ${TARGET_MB} MB)` : `OVER ${TARGET_MB} MB`,
      growth: peak - rssBefore,
    };
  } finally {
    server.send({ kind: 'stop' });
    await new Promise((r) => server.once('exit', r));
  }
}

const rows = [];
if (only.length === 0 || only.includes('disk')) rows.push(await run('disk', {}));
if (only.length === 0 || only.includes('s3')) {
  const peer = await startS3Peer('bench-upload');
  try {
    rows.push(await run('s3 (s3rver)', peer.env));
  } finally {
    await peer.close();
  }
}
console.table(rows.map(({ growth: _g, ...r }) => r));
const over = rows.filter((r) => r.growth >= TARGET_MB * MB);
if (over.length) {
  console.error(`Peak RSS growth over ${TARGET_MB} MB: ${over.map((r) => r.storage).join(', ')}`);
  process.exit(1);
}
