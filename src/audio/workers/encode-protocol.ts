import type { Mp3Bitrate } from '../codecs/mp3-encoder';

/** Channels move to the encoder worker as Float32Arrays (transferred when the caller no longer needs them). */
export interface EncodeRequest {
  channels: Float32Array[];
  sampleRate: number;
}

/**
 * The finished file. The worker assembles the Blob from its parts itself: building a Blob copies the bytes,
 * and on the page that copy of a 40 MB file blocked the main thread for ~75 ms. Posting a Blob is cheap.
 */
export interface EncodedFile {
  blob: Blob;
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
