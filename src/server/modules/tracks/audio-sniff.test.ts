import { describe, expect, it } from 'vitest';
import { MAX_SNIFF_BYTES, mpegFrameLength, sniffAfterTag, sniffAudio } from './audio-sniff';
import { encode, ffmpegMissing, id3Header, mp3Frame, wavBytes } from './test-uploads';

const decide = (bytes: Buffer) => {
  // Feed the bytes the way a stream would, in small chunks, until the sniffer decides.
  for (let n = 1; n <= bytes.length; n += 7) {
    const r = sniffAudio(bytes.subarray(0, n), false);
    if (r.kind !== 'more') return r;
  }
  return sniffAudio(bytes, true);
};

describe('sniffAudio', () => {
  it('recognises a synthesised WAV, streamed in pieces', () => {
    expect(decide(wavBytes())).toEqual({ kind: 'audio', contentType: 'audio/wav' });
  });

  it('finds the data chunk after metadata chunks', () => {
    const wav = wavBytes();
    const list = Buffer.alloc(8 + 1001 + 1);
    list.write('LIST', 0, 'latin1');
    list.writeUInt32LE(1001, 4); // odd size: padded to an even length
    const withList = Buffer.concat([wav.subarray(0, 36), list, wav.subarray(36)]);
    expect(decide(withList)).toEqual({ kind: 'audio', contentType: 'audio/wav' });
  });

  it.each([
    ['empty', Buffer.alloc(0)],
    ['RIFF only', Buffer.from('RIFF')],
    ['RIFF but AVI', Buffer.from('RIFF\0\0\0\0AVI LIST')],
    ['a WAV cut in its fmt chunk', wavBytes().subarray(0, 30)],
    ['a WAV without data chunk', wavBytes().subarray(0, 36)],
    [
      'a WAV with an unknown codec',
      (() => {
        const w = wavBytes();
        w.writeUInt16LE(0x55, 20);
        return w;
      })(),
    ],
    [
      'a WAV with zero channels',
      (() => {
        const w = wavBytes();
        w.writeUInt16LE(0, 22);
        return w;
      })(),
    ],
    ['data before fmt', Buffer.concat([Buffer.from('RIFF\0\0\0\0WAVEdata\x04\0\0\0abcd')])],
    ['text', Buffer.from('hello world, this is not audio')],
    ['HTML', Buffer.from('<html><script>alert(1)</script></html>')],
    ['a PNG', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])],
    [
      'an ADTS AAC header (layer bits 00)',
      Buffer.concat([Buffer.from([0xff, 0xf1, 0x50, 0x80]), Buffer.alloc(400)]),
    ],
    ['one MP3 frame followed by garbage', Buffer.concat([mp3Frame(), Buffer.from('garbage garbage')])],
    ['OggS that is not a first page', Buffer.concat([Buffer.from('OggS\0\0'), Buffer.alloc(60)])],
    [
      'an Ogg video (Theora)',
      Buffer.concat([
        Buffer.from('OggS\0\x02'),
        Buffer.alloc(20),
        Buffer.from([1]),
        Buffer.from([42]),
        Buffer.from('\x80theora'),
        Buffer.alloc(40),
      ]),
    ],
    [
      'an ID3 tag and nothing after it',
      Buffer.concat([Buffer.from('ID3\x04\0\0\0\0\0\x0a'), Buffer.alloc(10)]),
    ],
    [
      'an ID3 tag followed by HTML',
      Buffer.concat([Buffer.from('ID3\x04\0\0\0\0\0\x0a'), Buffer.alloc(10), Buffer.from('<html>')]),
    ],
  ])('refuses %s', (_label, bytes) => {
    expect(decide(bytes)).toEqual({ kind: 'invalid' });
  });

  it('accepts MPEG frames with and without an ID3 tag', () => {
    const frames = Buffer.concat([mp3Frame(), mp3Frame(), mp3Frame()]);
    expect(decide(frames)).toEqual({ kind: 'audio', contentType: 'audio/mpeg' });
    const tagged = Buffer.concat([Buffer.from('ID3\x03\0\0\0\0\0\x14'), Buffer.alloc(20), frames]);
    expect(decide(tagged)).toEqual({ kind: 'audio', contentType: 'audio/mpeg' });
    expect(mpegFrameLength(mp3Frame(), 0)).toBe(417);
  });

  it('takes an ID3 tag bigger than the sniff window on no trust: the bytes after it must decide', () => {
    const size = MAX_SNIFF_BYTES + 10;
    const head = Buffer.concat([id3Header(size), Buffer.alloc(MAX_SNIFF_BYTES)]);
    expect(sniffAudio(head, false)).toEqual({ kind: 'after-tag', offset: 10 + size });
    expect(sniffAfterTag(Buffer.concat([Buffer.alloc(3), mp3Frame(), mp3Frame()]), false)).toEqual({
      kind: 'audio',
      contentType: 'audio/mpeg',
    });
    expect(sniffAfterTag(Buffer.from('<html><script>'), false)).toEqual({ kind: 'invalid' });
    expect(sniffAfterTag(Buffer.alloc(0), true)).toEqual({ kind: 'invalid' });
    expect(sniffAfterTag(Buffer.alloc(MAX_SNIFF_BYTES), false)).toEqual({ kind: 'invalid' });
  });

  it('gives up on a RIFF file with no data chunk in the sniff window', () => {
    const junk = Buffer.alloc(MAX_SNIFF_BYTES);
    junk.write('JUNK', 0, 'latin1');
    junk.writeUInt32LE(MAX_SNIFF_BYTES * 2, 4);
    const head = Buffer.concat([wavBytes().subarray(0, 36), junk]);
    expect(sniffAudio(head, false)).toEqual({ kind: 'invalid' });
  });

  describe.skipIf(Boolean(ffmpegMissing()))(`real encoder output ${ffmpegMissing()}`, () => {
    it.each([
      ['mp3', 'audio/mpeg'],
      ['ogg', 'audio/ogg'],
    ] as const)('recognises ffmpeg %s as %s', (format, contentType) => {
      expect(decide(encode(wavBytes({ seconds: 0.3 }), format))).toEqual({ kind: 'audio', contentType });
    });
  });
});
