import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, extname, join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

/**
 * Serves a page with the mastering engine (chain worker, meter worker, AudioWorklet) bundled here with
 * esbuild, so browser tests and benchmarks run the real modules in real Chromium without building the app.
 * Cross-origin isolated (COOP/COEP) like the app, so performance.now() is precise.
 */
const here = resolve(import.meta.dirname);
const root = resolve(here, '..', '..');

const ENTRIES = {
  harness: join(here, 'harness-entry.ts'),
  'master-worker': join(root, 'src/audio/workers/master-worker.ts'),
  'meter-worker': join(root, 'src/audio/workers/meter-worker.ts'),
  'mastering-worklet': join(root, 'src/audio/graph/mastering.worklet.ts'),
};

/** Vite's `?worker&url` import of the worklet: here its separately built bundle's URL. */
const workletUrl: Plugin = {
  name: 'worker-url',
  setup(b) {
    b.onResolve({ filter: /\?worker&url$/ }, (args) => ({ path: args.path, namespace: 'worker-url' }));
    b.onLoad({ filter: /.*/, namespace: 'worker-url' }, (args) => {
      if (!args.path.includes('mastering.worklet')) throw new Error(`unknown worker url ${args.path}`);
      return { contents: 'export default "/mastering-worklet.js";', loader: 'js' };
    });
  },
};

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.html': 'text/html',
  '.map': 'application/json',
};

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>mastering harness</title><link rel="icon" href="data:,"></head>
<body><script type="module" src="/harness.js"></script></body></html>`;

export interface MasteringHarness {
  url: string;
  close(): Promise<void>;
}

export const startMasteringHarness = async (): Promise<MasteringHarness> => {
  const out = await mkdtemp(join(tmpdir(), 'mastering-harness-'));
  await build({
    entryPoints: ENTRIES,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outdir: out,
    sourcemap: 'linked',
    logLevel: 'error',
    plugins: [workletUrl],
  });
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const headers = {
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
      'cache-control': 'no-store',
    };
    try {
      if (path === '/' || path === '/index.html') {
        res.writeHead(200, { ...headers, 'content-type': 'text/html' }).end(PAGE);
        return;
      }
      const file = join(out, basename(path));
      const body = await readFile(file);
      res.writeHead(200, { ...headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404, headers).end('not found');
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      await new Promise<void>((ok) => server.close(() => ok()));
      await rm(out, { recursive: true, force: true });
    },
  };
};
