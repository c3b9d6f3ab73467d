import fs from 'node:fs';
import path from 'node:path';

export class DirLockedError extends Error {}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Takes `<dir>.lock` beside the folder, holding this process's pid. A lock left by a process that died
 * (kill -9) is taken over; a live owner makes this throw. Returns the release function.
 */
export function acquireDirLock(dir: string): () => void {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const lockPath = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        fs.rmSync(lockPath, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(fs.readFileSync(lockPath, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new DirLockedError(
          `The database folder ${dir} is in use by another server process (pid ${owner}). ` +
            'Stop that process, or set DATA_DIR to another folder. Two processes on one PGlite folder lose writes.',
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DirLockedError(`Could not lock the database folder ${dir}`);
}
