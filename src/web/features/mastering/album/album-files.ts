/**
 * The album's delivery files (issue 31 item 4): the record sequenced once (built in the encoder worker by
 * albumcore's RecordBuilder, the layout the CUE sheet describes), every track cut from it at its start (so
 * the files played one after another are the record: gapless where it is gapless), each in every chosen
 * format with its tags, and on request the whole record as one WAV or FLAC with its CUE sheet. The encoders
 * are the single page's.
 */

import { resampledLength } from '../../../../audio/dsp/resample';
import { MIX_VERSION_LABELS, type MixVersion } from '../../../../shared/mix-versions';
import { encode, encoderClient } from '../download/download-flow';
import { copyChannels } from '../engine/chunked-copy';
import type { ExportFormat } from '../engine/engine-api';
import type { VersionsOutput } from '../versions/versions-job';
import {
  type AlbumTags,
  cueSheet,
  type SequencedAlbum,
  type SequenceOptions,
  tagFlac,
  tagMp3,
  tagWav,
} from './album-engine';

export interface AlbumFileTrack {
  title: string;
  isrc: string;
  buffer: AudioBuffer;
  /** A mix's versions (issue 18), mastered with its Main's gains; null for any other track. */
  versions: VersionsOutput | null;
}

export interface AlbumFileChoice {
  record: string;
  artist: string;
  formats: ExportFormat[];
  /** The whole record as one file with a CUE sheet, in this format; null: not asked for. */
  continuous: 'wav' | 'flac16' | null;
  sequence: SequenceOptions;
  /** The mixes' versions to deliver besides their Main (never 'main': that is the record's track). */
  versions: readonly MixVersion[];
}

/** The versions delivered for `track`: those chosen that it has. */
export const versionsOf = (track: Pick<AlbumFileTrack, 'versions'>, chosen: readonly MixVersion[]) =>
  track.versions ? chosen.filter((v) => v !== 'main' && track.versions!.channels[v]) : [];

const EXTENSION: Record<ExportFormat, string> = {
  wav: 'wav',
  wav24: 'wav',
  wav32f: 'wav',
  mp3: 'mp3',
  flac16: 'flac',
  flac24: 'flac',
};
/** Formats that share an extension are told apart in the name. */
const SUFFIX: Record<ExportFormat, string> = {
  wav: '',
  wav24: ' (24-bit)',
  wav32f: ' (32-bit float)',
  mp3: '',
  flac16: '',
  flac24: ' (24-bit)',
};

/** A name safe in every file system: no path or reserved characters, at most 80 characters. */
export const safeName = (text: string): string =>
  text
    .replace(/[\\/:*?"<>|]/g, '')
    // Control characters (below U+0020) have no place in a file name.
    .replace(/[^\x20-\u{10ffff}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80) || 'Untitled';

export const trackFileName = (index: number, title: string, format: ExportFormat): string =>
  `${String(index + 1).padStart(2, '0')} - ${safeName(title)}${SUFFIX[format]}.${EXTENSION[format]}`;

/** fLaC and a STREAMINFO block marked as the last metadata block: what our FLAC encoder writes first. */
const FLAC_HEADER_BYTES = 4 + 4 + 34;
/** Bytes of a WAV or MP3 read for its tags: the encoders' whole header (a WAV's data chunk header) is in them. */
const HEAD_BYTES = 65_536;

/**
 * The encoder's file with its tags (albumcore's tag functions take the file's parts, the first holding its
 * header). Only the head is read onto the page: reading a whole file was one main-thread task of 130-230 ms
 * for a 40 MB WAV (decision 320); the rest stays a slice of the encoder's Blob. A FLAC's head is exactly
 * its 42-byte header, which the encoder writes as a lone STREAMINFO (flag "last" set) the tags follow.
 */
const tagged = async (format: ExportFormat, blob: Blob, tags: AlbumTags): Promise<Blob> => {
  const flac = EXTENSION[format] === 'flac';
  const length = flac ? FLAC_HEADER_BYTES : Math.min(blob.size, HEAD_BYTES);
  const head = new Uint8Array(await blob.slice(0, length).arrayBuffer());
  if (flac && head[4] !== 0x80) throw new Error('The FLAC has metadata blocks after STREAMINFO');
  const tag = format === 'mp3' ? tagMp3 : flac ? tagFlac : tagWav;
  return new Blob([...tag([head], tags), blob.slice(length)], { type: blob.type });
};

/**
 * The record, built in the encoder worker a track at a time (decision 320): every track at the first track's
 * rate (the record has one rate; others are resampled in the worker), each copied slice by slice and moved
 * there in turn, so the page holds one track's copy at most besides the masters.
 */
const sequenced = async (
  tracks: readonly AlbumFileTrack[],
  options: SequenceOptions,
  signal: AbortSignal,
): Promise<SequencedAlbum> => {
  const rate = tracks[0]!.buffer.sampleRate;
  // The record is at most stereo: a track's first two channels.
  const upToStereo = (buffer: AudioBuffer) =>
    Array.from({ length: Math.min(2, buffer.numberOfChannels) }, (_, c) => buffer.getChannelData(c));
  async function* atOneRate() {
    for (const { buffer } of tracks) {
      const copies = await copyChannels(upToStereo(buffer), signal);
      yield buffer.sampleRate === rate
        ? copies
        : await encoderClient().resample(copies, buffer.sampleRate, rate, { transfer: true, signal });
    }
  }
  const layout = {
    lengths: tracks.map(({ buffer }) => resampledLength(buffer.length, buffer.sampleRate, rate)),
    channels: Math.max(...tracks.map(({ buffer }) => Math.min(2, buffer.numberOfChannels))),
    sampleRate: rate,
    options,
  };
  return encoderClient().sequence(layout, atOneRate(), signal);
};

export const makeAlbumFiles = async (
  tracks: readonly AlbumFileTrack[],
  choice: AlbumFileChoice,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<{ name: string; blob: Blob }[]> => {
  const record = await sequenced(tracks, choice.sequence, signal);
  const rate = record.sampleRate;
  const extra = tracks.reduce((n, t) => n + versionsOf(t, choice.versions).length, 0);
  const steps = (tracks.length + extra) * choice.formats.length + (choice.continuous ? 1 : 0);
  let step = 0;
  const at = (f: number) => onProgress((step + f) / steps);
  const files: { name: string; blob: Blob }[] = [];
  const album = choice.record.trim();
  const artist = choice.artist.trim() || undefined;
  for (const [i, track] of tracks.entries()) {
    const from = record.starts[i]!;
    const to = record.starts[i + 1] ?? record.frames;
    const piece = record.channels.map((c) => c.subarray(from, to));
    const tags: AlbumTags = {
      title: track.title.trim() || 'Untitled',
      artist,
      album,
      trackNumber: i + 1,
      trackTotal: tracks.length,
      isrc: track.isrc.trim() || undefined,
    };
    for (const format of choice.formats) {
      signal.throwIfAborted();
      const blob = await encode(format, piece, rate, at);
      files.push({ name: trackFileName(i, track.title, format), blob: await tagged(format, blob, tags) });
      step++;
    }
    // A mix's versions beside the record (not on it, nor in the CUE sheet), named as the single page names
    // them ('…-instrumental.wav'), tagged with the version in the title.
    for (const version of versionsOf(track, choice.versions)) {
      const made = track.versions!;
      const title = `${tags.title} (${MIX_VERSION_LABELS[version]})`;
      for (const format of choice.formats) {
        signal.throwIfAborted();
        const blob = await encode(format, made.channels[version]!, made.sampleRate, at);
        const name = `Versions/${trackFileName(i, `${track.title}-${version}`, format)}`;
        files.push({ name, blob: await tagged(format, blob, { ...tags, title }) });
        step++;
      }
    }
  }
  if (choice.continuous) {
    signal.throwIfAborted();
    const base = safeName(album || 'Album');
    const fileName = `${base}.${choice.continuous === 'wav' ? 'wav' : 'flac'}`;
    const blob = await encode(choice.continuous, record.channels, rate, at);
    files.push({
      name: fileName,
      blob: await tagged(choice.continuous, blob, { title: album || 'Album', artist, album }),
    });
    const cue = cueSheet({
      fileName,
      fileType: 'WAVE',
      title: album || 'Album',
      performer: artist,
      sampleRate: rate,
      tracks: tracks.map((t, i) => ({
        title: t.title.trim() || 'Untitled',
        performer: artist,
        isrc: t.isrc.trim() || undefined,
        startSample: record.starts[i]!,
      })),
    });
    files.push({ name: `${base}.cue`, blob: new Blob([cue], { type: 'application/x-cue' }) });
    step++;
  }
  return files;
};
