import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LIBRARY_MESSAGES } from '../../../shared/api/library';
import { AppError } from '../../errors';
import { allowedKinds, guardedBody, keptName } from './master-file-guard';

const read = async (r: Readable) => {
  const parts: Buffer[] = [];
  for await (const c of r) parts.push(c as Buffer);
  return Buffer.concat(parts);
};
const chunks = (...bufs: Buffer[]) => Readable.from(bufs);
const tooBig = () => new AppError(413, 'storage_quota_exceeded', 'full');

describe('kept master files (decision 226)', () => {
  it('allows the paid formats, and a ZIP only when the download had more than one file of versions', () => {
    expect([...allowedKinds(['wav', 'wav24'], ['main'])].sort()).toEqual(['wav', 'zip']);
    expect([...allowedKinds(['mp3'], ['main'])]).toEqual(['mp3']);
    expect([...allowedKinds(['flac24'], ['main', 'instrumental'])].sort()).toEqual(['flac', 'zip']);
    // An album was handed over as one ZIP, whatever its formats: a loose track file was never downloaded.
    expect([...allowedKinds(['wav', 'mp3'], ['main'], true)]).toEqual(['zip']);
    expect([...allowedKinds(['wav'], ['main'], true)]).toEqual(['zip']);
  });

  it('cleans the name and refuses a format that was not paid for', () => {
    const kinds = allowedKinds(['wav'], ['main']);
    expect(keptName('../../mastered balanced-1.wav', kinds)).toEqual({
      name: 'masteredbalanced-1.wav',
      kind: 'wav',
    });
    expect(() => keptName('a.mp3', kinds)).toThrow(LIBRARY_MESSAGES.fileNotPaid);
    expect(() => keptName('a.exe', kinds)).toThrow(LIBRARY_MESSAGES.fileNotPaid);
    expect(() => keptName('noextension', kinds)).toThrow(LIBRARY_MESSAGES.fileNotPaid);
  });

  it('passes the bytes through when they start as the kind says, across chunk borders', async () => {
    const body = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(1000, 3)]);
    const out = await read(
      guardedBody(chunks(body.subarray(0, 2), body.subarray(2, 9), body.subarray(9)), 'wav', 2000, tooBig),
    );
    expect(Buffer.compare(out, body)).toBe(0);
    const mp3 = Buffer.from([0xff, 0xfb, 0x90, 0x64, 1, 2, 3]);
    expect(Buffer.compare(await read(guardedBody(chunks(mp3), 'mp3', 100, tooBig)), mp3)).toBe(0);
  });

  it('refuses other bytes, a file too short to tell, and a file past the limit', async () => {
    await expect(read(guardedBody(chunks(Buffer.from('fLaC....')), 'wav', 100, tooBig))).rejects.toThrow(
      LIBRARY_MESSAGES.fileType,
    );
    await expect(read(guardedBody(chunks(Buffer.from('RI')), 'wav', 100, tooBig))).rejects.toThrow(
      LIBRARY_MESSAGES.fileType,
    );
    await expect(
      read(guardedBody(chunks(Buffer.from('RIFF'), Buffer.alloc(200)), 'wav', 100, tooBig)),
    ).rejects.toThrow('full');
  });
});
