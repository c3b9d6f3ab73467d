import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { createZipHandlers } from './zip-handlers';

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * seed + 7) & 0xff);

describe('ZIP handler', () => {
  it('stores every entry byte for byte, reports progress up to 1, and Python reads the archive', async () => {
    const entries = [
      { name: 'mastered-balanced-1700000000000-main.wav', blob: new Blob([bytes(300_000, 3)]) },
      { name: 'mastered-balanced-1700000000000-acappella.mp3', blob: new Blob([bytes(70_001, 5)]) },
    ];
    const seen: number[] = [];
    const blob = (await createZipHandlers().zip(
      { entries },
      { signal: new AbortController().signal, progress: (f) => seen.push(f), hold: () => {} },
    )) as Blob;
    const archive = new Uint8Array(await blob.arrayBuffer());
    const files = unzipSync(archive);
    expect(Object.keys(files)).toEqual(entries.map((e) => e.name));
    expect(files[entries[0]!.name]).toEqual(bytes(300_000, 3));
    expect(files[entries[1]!.name]).toEqual(bytes(70_001, 5));
    expect(seen.at(-1)).toBe(1);
    expect(seen.every((f, i) => i === 0 || f >= seen[i - 1]!)).toBe(true);
    // An independent reader: Python's zipfile checks the CRCs.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-versions-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.zip'), archive);
      const run = spawnSync(
        'python3',
        [
          '-c',
          'import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); print(z.testzip()); print(len(z.namelist()))',
          path.join(dir, 'a.zip'),
        ],
        { encoding: 'utf8' },
      );
      expect(run.stdout.trim()).toBe('None\n2');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    const job = createZipHandlers().zip(
      { entries: [{ name: 'a.wav', blob: new Blob([bytes(5_000_000, 3)]) }] },
      { signal: controller.signal, progress: () => controller.abort(), hold: () => {} },
    );
    await expect(job).rejects.toThrow(/abort/i);
  });
});
