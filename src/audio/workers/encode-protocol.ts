import type { Mp3Bitrate } from '../codecs/mp3-encoder';

/** Channels move to the encoder worker as Float32Arrays (transferred when the caller no longer needs them). */
export interface EncodeRequest {
  channels: Float32Array[];
  sampleRate: number;
}

export interface EncodedFile {
  /** Blob parts, in order; their buffers are transferred back. */
  parts: Uint8Array<ArrayBuffer>[];
  mimeType: string;
}

/** The encoder worker's protocol (see worker-rpc.ts); progress is the fraction of input done. */
export interface EncodeApi {
  wav: { request: EncodeRequest & { dither?: boolean }; response: EncodedFile; progress: number };
  mp3: {
    request: EncodeRequest & { bitrate?: Mp3Bitrate; wasmUrl?: string };
    response: EncodedFile;
    progress: number;
  };
}
