// `npm test`: the one command that runs every check, on a fresh machine too.
// 1. makes sure the system tools exist (Debian's chromium, ffmpeg, sox, lame; PostgreSQL started if installed),
// 2. type checks and lints, 3. runs the unit and server suites (PGlite + PostgreSQL),
// 4. builds the app and runs the Playwright specs in real Chromium against it.
import { execSync, spawnSync } from 'node:child_process';
import { ensureDebianPackages } from './debian-packages.mjs';

const isRoot = process.getuid?.() === 0;
const have = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const step = (title) => console.log(`\n=== ${title} ===`);

function run(title, cmd, args, env = {}) {
  step(title);
  const started = Date.now();
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (res.status !== 0) {
    console.error(`\n✗ ${title} failed (exit ${res.status ?? res.signal}) after ${seconds} s`);
    process.exit(res.status || 1);
  }
  console.log(`✓ ${title} (${seconds} s)`);
}

step('system tools');
const debianPackages = {
  '/usr/bin/chromium': 'chromium',
  '/usr/bin/ffmpeg': 'ffmpeg',
  '/usr/bin/sox': 'sox',
  '/usr/bin/lame': 'lame',
  // flac -t checks our FLAC exports' MD5 (issue 19).
  '/usr/bin/flac': 'flac',
  // A spoken vocal for the vocal-space checks (issue 18).
  '/usr/bin/espeak-ng': 'espeak-ng',
  // Real produced music for the mastering checks on real tracks (issue 16).
  '/usr/share/games/asc/music/frontiers.mp3': 'asc-music',
  '/usr/share/hyperrogue/music/hr3-hell.ogg': 'hyperrogue-music',
  // The production topology test (issue 20): TLS ends at Debian's HAProxy, certificate made with openssl,
  // backups with pg_dump/pg_restore (which the PostgreSQL server packages bring along).
  '/usr/sbin/haproxy': 'haproxy',
  '/usr/bin/openssl': 'openssl',
  // Round 3 (issues 26, 27, 31): sung melodies and beats with known notes, keys and tempi rendered from MIDI,
  // an independent pitch, tempo and onset reference, real loops, and a third set of produced music.
  '/usr/bin/fluidsynth': 'fluidsynth',
  '/usr/share/sounds/sf2/FluidR3_GM.sf2': 'fluid-soundfont-gm',
  '/usr/bin/aubiopitch': 'aubio-tools',
  '/usr/share/sonic-pi/samples/loop_amen.flac': 'sonic-pi-samples',
};
ensureDebianPackages(debianPackages);
if (have('pg_lsclusters') && have('pg_ctlcluster')) {
  for (const line of execSync('pg_lsclusters --no-header').toString().trim().split('\n').filter(Boolean)) {
    const [version, name, , status] = line.split(/\s+/);
    if (status !== 'online' && isRoot) {
      console.log(`starting PostgreSQL ${version}/${name} ...`);
      spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, 'start'], { stdio: 'inherit' });
    }
  }
}
if (
  have('redis-server') &&
  have('redis-cli') &&
  spawnSync('redis-cli', ['-h', '127.0.0.1', 'ping'], { stdio: 'ignore' }).status !== 0 &&
  isRoot
) {
  console.log('starting Redis ...');
  spawnSync(
    'redis-server',
    ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', '6379', '--save', '', '--appendonly', 'no'],
    { stdio: 'inherit' },
  );
}
console.log('✓ system tools');

run('type check', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.web.json']);
run('type check (server)', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.node.json']);
run('lint and format', 'npx', ['biome', 'ci', '.']);
run('unit and server tests', 'npx', ['vitest', 'run']);
// Stops and restarts the machine's PostgreSQL under load: only on CI, which runs alone, and in a step of its
// own so no other suite loses its database meanwhile.
if (process.env.CI === 'true') {
  run('PostgreSQL restart under load', 'npx', ['vitest', 'run', 'tests/faults-pg-restart.test.ts'], {
    FAULTS_RESTART_PG: '1',
  });
}
// HAProxy with TLS in front of two built instances, PostgreSQL, Redis and S3; kill -9 under traffic; backup
// and restore (tests/production-topology.test.ts). Alone in its step, so no other suite competes for the
// cores while it measures failover; it says why when it skips (no PostgreSQL, no Redis, no HAProxy).
run(
  'production topology (HAProxy + TLS, two instances, failover, backup/restore)',
  'npx',
  ['vitest', 'run', 'tests/production-topology.test.ts'],
  { TOPOLOGY: '1' },
);
run('build', 'npm', ['run', 'build:app']);
run('browser tests (Playwright, Chromium)', 'npx', ['playwright', 'test']);
console.log('\nAll checks passed.');
