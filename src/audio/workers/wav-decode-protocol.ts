/**
 * The WAV decode worker's protocol (see worker-rpc.ts). The file's bytes move in; the channels move out, or,
 * when our reader refuses the file, the bytes move back so the page can hand them to decodeAudioData.
 */
export type WavDecodeResult =
  | { kind: 'decoded'; sampleRate: number; channels: Float32Array[] }
  | { kind: 'refused'; bytes: ArrayBuffer };

export interface WavDecodeApi {
  decode: {
    request: { bytes: ArrayBuffer };
    response: WavDecodeResult;
    progress: never;
  };
}
