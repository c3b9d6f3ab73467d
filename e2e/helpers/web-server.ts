import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';

/**
 * Starts a second copy of the built app (dist/server/main.js) with its own port, data folder and settings,
 * for the few tests that need a configuration the shared e2e server does not have (developer mode off).
 */
export interface StartedServer {
  baseURL: string;
  stop: () => Promise<void>;
}

export const startBuiltServer = async (
  port: number,
  dataDir: string,
  env: Record<string, string>,
): Promise<StartedServer> => {
  await rm(dataDir, { recursive: true, force: true });
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      SMTP_URL: '',
      STRIPE_SECRET_KEY: '',
      REDIS_URL: '',
      ...env,
    },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr}`);
    const up = await fetch(`${baseURL}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) {
      return {
        baseURL,
        stop: async () => {
          if (child.exitCode !== null) return;
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
          await rm(dataDir, { recursive: true, force: true });
        },
      };
    }
    // Polling a port that is not open yet: a short pause between attempts, not a fixed wait for a result.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not answer /api/health within 90 s: ${stderr}`);
};
