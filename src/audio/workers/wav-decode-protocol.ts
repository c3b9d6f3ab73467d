/**
 * The WAV decode worker's protocol (see worker-rpc.ts). The user's file goes in as a Blob (a handle: the
 * worker reads its bytes, so the page never holds a 100 MB read in one task); the channels move out, or,
 * when our reader refuses the file, the bytes move back so the page can hand them to decodeAudioData.
 * Progress 'read' says the file's bytes are in (the mixer's file-read time-out ends there).
 */
export type WavDecodeResult =
  | { kind: 'decoded'; sampleRate: number; channels: Float32Array[] }
  | { kind: 'refused'; bytes: ArrayBuffer }
  /** The browser could not read the file (moved, deleted, or permission gone since it was chosen). */
  | { kind: 'unreadable' };

export interface WavDecodeApi {
  decode: {
    request: { file: Blob };
    response: WavDecodeResult;
    progress: 'read';
  };
}
