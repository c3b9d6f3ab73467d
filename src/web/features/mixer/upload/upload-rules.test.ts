import { describe, expect, it } from 'vitest';
import { MAX_TRACK_BYTES } from '../../../../shared/api/tracks';
import { isAllowedAudio, uploadProblem } from './upload-rules';

describe('upload rules', () => {
  it('accepts the spec types and their browser aliases', () => {
    for (const type of ['audio/wav', 'audio/mp3', 'audio/mpeg', 'audio/ogg', 'audio/x-wav']) {
      expect(isAllowedAudio({ type, name: 'a.bin' })).toBe(true);
    }
  });

  it('refuses other types with the spec message, type before size', () => {
    expect(uploadProblem({ type: 'text/plain', name: 'a.wav', size: MAX_TRACK_BYTES + 1 })).toEqual({
      title: 'Invalid file type',
      description: 'Please upload a WAV, MP3, OGG, FLAC, AIFF or M4A file',
    });
    expect(uploadProblem({ type: 'audio/webm', name: 'a.webm', size: 10 })?.title).toBe('Invalid file type');
  });

  it("accepts issue 19's FLAC, AIFF and M4A/AAC by type and, without a type, by extension", () => {
    for (const type of [
      'audio/flac',
      'audio/x-flac',
      'audio/aiff',
      'audio/x-aiff',
      'audio/x-aifc',
      'audio/mp4',
      'audio/x-m4a',
      'audio/aac',
    ])
      expect(uploadProblem({ type, name: 'a.bin', size: 10 })).toBeNull();
    for (const name of ['a.flac', 'b.AIF', 'c.aiff', 'd.aifc', 'e.m4a', 'f.aac'])
      expect(uploadProblem({ type: '', name, size: 10 })).toBeNull();
  });

  it('falls back to the extension when the browser gives no type', () => {
    expect(isAllowedAudio({ type: '', name: 'Take 3.WAV' })).toBe(true);
    expect(isAllowedAudio({ type: '', name: 'notes.txt' })).toBe(false);
  });

  it('allows exactly 100 MB and refuses one byte more', () => {
    expect(uploadProblem({ type: 'audio/wav', name: 'a.wav', size: MAX_TRACK_BYTES })).toBeNull();
    expect(uploadProblem({ type: 'audio/wav', name: 'a.wav', size: MAX_TRACK_BYTES + 1 })).toEqual({
      title: 'File too large',
      description: 'Please upload an audio file smaller than 100MB',
    });
  });
});
