/**
 * Tags in the delivery files (issue 31 item 4). Being built: the interface commit carries the signatures.
 * Each takes the encoder's Blob parts (encodeWav / encodeFlac / encodeMp3) and returns the tagged file's parts.
 */
import type { AlbumTags } from './album-api';

export const tagWav = (_parts: readonly Uint8Array[], _tags: AlbumTags): Uint8Array<ArrayBuffer>[] => {
  throw new Error('tagWav: not built yet (interface commit)');
};
export const tagFlac = (_parts: readonly Uint8Array[], _tags: AlbumTags): Uint8Array<ArrayBuffer>[] => {
  throw new Error('tagFlac: not built yet (interface commit)');
};
export const tagMp3 = (_parts: readonly Uint8Array[], _tags: AlbumTags): Uint8Array<ArrayBuffer>[] => {
  throw new Error('tagMp3: not built yet (interface commit)');
};
