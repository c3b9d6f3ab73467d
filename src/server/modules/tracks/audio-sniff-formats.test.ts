import { describe, expect, it } from 'vitest';
import { sniffAudio } from './audio-sniff';
import { encodeStudio, ffmpegMissing, wavBytes } from './test-uploads';

const decide = (bytes: Buffer) => {
  // Fed the way a stream arrives, in small pieces, until the sniffer decides.
  for (let n = 1; n <= bytes.length; n += 7) {
    const r = sniffAudio(bytes.subarray(0, n), false);
    if (r.kind !== 'more') return r;
  }
  return sniffAudio(bytes, true);
};

describe.skipIf(Boolean(ffmpegMissing()))(`sniffAudio, issue 19's formats ${ffmpegMissing()}`, () => {
  it.each([
    ['flac', 'audio/flac'],
    ['aiff', 'audio/aiff'],
    ['aifc', 'audio/aiff'],
    ['m4a', 'audio/mp4'],
    ['aac', 'audio/aac'],
  ] as const)('recognises a real %s file as %s, streamed in pieces', (format, contentType) => {
    expect(decide(encodeStudio(wavBytes({ seconds: 0.5 }), format))).toEqual({ kind: 'audio', contentType });
  });

  it('refuses each format cut before the bytes a decoder needs, and look-alikes', () => {
    const wav = wavBytes({ seconds: 0.5 });
    const flac = encodeStudio(wav, 'flac');
    const aiff = encodeStudio(wav, 'aiff');
    const m4a = encodeStudio(wav, 'm4a');
    const aac = encodeStudio(wav, 'aac');
    const cases: Buffer[] = [
      flac.subarray(0, 20), // fLaC with half a STREAMINFO
      Buffer.concat([flac.subarray(0, 4), Buffer.from([0x04]), flac.subarray(5)]), // first block not STREAMINFO
      aiff.subarray(0, 20), // FORM/AIFF cut inside COMM
      Buffer.concat([aiff.subarray(0, 8), Buffer.from('8SVX'), aiff.subarray(12)]), // IFF, but not AIFF
      Buffer.concat([m4a.subarray(0, 8), Buffer.from('qt  '), m4a.subarray(12)]), // QuickTime movie brand
      Buffer.concat([aac.subarray(0, 40), Buffer.from('not another frame')]), // one ADTS header, then junk
      Buffer.from('fLaC'),
      Buffer.from('FORM'),
    ];
    for (const bytes of cases) expect(decide(bytes)).toEqual({ kind: 'invalid' });
  });
});
