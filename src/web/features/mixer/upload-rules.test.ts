import { describe, expect, it } from 'vitest';
import { MAX_TRACK_BYTES } from '../../../shared/api/tracks';
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
      description: 'Please upload a WAV, MP3 or OGG file',
    });
    expect(uploadProblem({ type: 'audio/flac', name: 'a.flac', size: 10 })?.title).toBe('Invalid file type');
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
