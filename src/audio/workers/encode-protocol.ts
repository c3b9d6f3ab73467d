import type { SequencedAlbum, SequenceOptions } from '../album/album-api';
import type { Mp3Bitrate } from '../codecs/mp3-encoder';
import type { Mp3EncodedSegment } from '../codecs/mp3-parallel';
import type { IntDepth } from '../codecs/pcm-quantise';
import type { WavEncoding, WavSegment } from '../codecs/wav-encoder';

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
  /** A whole WAV file, or one worker's share of it (`segment`: the client joins the shares' Blobs). */
  wav: {
    request: EncodeRequest & { dither?: boolean; encoding?: WavEncoding; segment?: WavSegment };
    response: EncodedFile;
    progress: number;
  };
  flac: {
    request: EncodeRequest & { bits?: IntDepth; dither?: boolean };
    response: EncodedFile;
    progress: number;
  };
  /** The channels at `outputRate` (polyphase resampler), moved back. */
  resample: {
    request: EncodeRequest & { outputRate: number };
    response: { channels: Float32Array[] };
    progress: number;
  };
  /**
   * The album's record (album-sequence.ts RecordBuilder), built here a track at a time: a 16-minute record is
   * 340 MB written in one run, over a second of one task on the page (decision 320). `sequenceStart` lays it
   * out (and drops any record begun before), `sequenceAdd` adds the next track (moved in), `sequenceTake`
   * moves the finished record back.
   */
  sequenceStart: {
    request: { lengths: number[]; channels: number; sampleRate: number; options: SequenceOptions };
    response: null;
    progress: never;
  };
  sequenceAdd: { request: { track: Float32Array[] }; response: null; progress: never };
  sequenceTake: { request: null; response: SequencedAlbum; progress: never };
  /**
   * The master limited for a lossy coder at the same loudness (limitForLossy, decision 217), moved back;
   * the MP3 made from it needs no turn-down (`headroomDb` 0).
   */
  lossyLimit: {
    request: EncodeRequest;
    response: { channels: Float32Array[] };
    progress: number;
  };
  mp3: {
    request: EncodeRequest & { bitrate?: Mp3Bitrate; wasmUrl?: string; headroomDb?: number };
    response: EncodedFile;
    progress: number;
  };
  /**
   * One segment of a parallel MP3 encode (see mp3-parallel.ts): LAME's frames for the samples
   * [start, end), no Info tag, moved back as parts. `giveBack` moves the input back too, so the page
   * still has it for a serial encode should the join fail.
   */
  mp3Segment: {
    request: EncodeRequest & {
      bitrate?: Mp3Bitrate;
      wasmUrl?: string;
      headroomDb?: number;
      start: number;
      end: number;
      giveBack?: boolean;
    };
    response: { parts: Uint8Array[]; channels?: Float32Array[] };
    progress: number;
  };
  /** Joins the segments' frames and puts the Info tag in front: the finished file. */
  mp3Join: {
    request: { segments: Mp3EncodedSegment[]; inputFrames: number; bitrate?: Mp3Bitrate };
    response: EncodedFile;
    progress: never;
  };
}
