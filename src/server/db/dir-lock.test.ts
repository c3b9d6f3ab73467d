import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireDirLock, DirLockedError } from './dir-lock';

describe('PGlite folder lock', () => {
  it('refuses a second owner while the first is alive, and releases', () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lock-')), 'pglite');
    const child = spawn('sleep', ['30']);
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.writeFileSync(`${dir}.lock`, String(child.pid));
    try {
      expect(() => acquireDirLock(dir)).toThrow(DirLockedError);
      expect(() => acquireDirLock(dir)).toThrow(/in use by another server process/);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('takes over a lock left by a process that was killed', () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lock-')), 'pglite');
    const dead = spawnSync('sh', ['-c', 'echo $$']).stdout.toString().trim();
    fs.writeFileSync(`${dir}.lock`, dead);
    const release = acquireDirLock(dir);
    expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });
});
