/** Issue 31 item 1: the side-by-side figures and the outliers, on real music (hyperrogue-music). */
import { describe, expect, it } from 'vitest';
import { decodeTake, TAKES } from '../dsp/genre-takes.test-helper';
import { ffmpegAvailable } from '../dsp/node-tools.test-helper';
import { analyseTrack } from '../dsp/track-analysis';
import { albumOverview, OUTLIER_FROM } from './album-overview';

const RATE = 44100;
const DIR = '/usr/share/hyperrogue/music';

describe('album overview (issue 31)', { timeout: 300_000 }, async () => {
  const tools = await ffmpegAvailable();
  it.skipIf(!tools)('marks the track made 8 dB quieter in loudness and the dull one in tilt', async () => {
    const takes: [string, string][] = [
      ['hr3-jungle', ''],
      ['hr3-caves', 'volume=-8dB'],
      ['hr3-hell', TAKES.dull],
      ['hr3-desert', ''],
      ['hr3-icyland', ''],
    ];
    const tracks = [];
    for (const [name, filter] of takes) {
      const channels = await decodeTake(`${DIR}/${name}.ogg`, RATE, filter, 30, 20);
      if (!channels) return;
      tracks.push({ id: name, analysis: analyseTrack(channels, RATE) });
    }
    const overview = albumOverview(tracks);
    console.log(
      overview.tracks
        .map(
          (t) =>
            `${t.id}: ${t.loudnessLufs.toFixed(1)} LUFS, LRA ${t.lraLu.toFixed(1)}, tilt ${t.tiltDb.toFixed(1)}, ` +
            `low end ${t.lowEndDb.toFixed(1)} dB (corr ${t.lowEndCorrelation.toFixed(2)}) [${t.outliers.join(', ')}]`,
        )
        .join('\n'),
    );
    const byId = Object.fromEntries(overview.tracks.map((t) => [t.id, t.outliers]));
    // The 8 dB quieter upload is the one loudness outlier; the dull take is marked in tilt.
    expect(overview.tracks.filter((t) => t.outliers.includes('loudness')).map((t) => t.id)).toEqual([
      'hr3-caves',
    ]);
    expect(byId['hr3-hell']).toContain('tilt');
    // A track inside every threshold of the others' median is marked in nothing.
    expect(byId['hr3-icyland']).toEqual([]);
    expect(overview.outlierFrom).toEqual(OUTLIER_FROM);
  });
});
