/**
 * Node-only: renders the beats of `beat-midi.ts` with fluidsynth and Debian's FluidR3 General MIDI font into a
 * cache folder (one render per spec, kept across runs), and runs aubio on them as the independent tool.
 */
import { loadNodeTools } from '../node-tools.test-helper';
import { type BeatSpec, beatMidi } from './beat-midi';

export const SOUNDFONT = '/usr/share/sounds/sf2/FluidR3_GM.sf2';

export const fluidsynthAvailable = async (): Promise<boolean> => {
  const { child, fs } = await loadNodeTools();
  return (
    fs.existsSync(SOUNDFONT) &&
    child.spawnSync('fluidsynth', ['--version'], { encoding: 'utf8' }).status === 0
  );
};

/**
 * The rendered beat's WAV path (44.1 kHz stereo), rendering it first when it is not in the cache. The unit
 * tests, the song-facts bench (a 4-minute beat) and the song-facts e2e all render through here.
 */
export const renderBeat = async (spec: BeatSpec): Promise<string> => {
  const { child, fs, tmp } = await loadNodeTools();
  const dir = `${tmp}/song-facts-beats-v1`;
  const mkdir = (await import('node:fs' as string)) as {
    mkdirSync(p: string, o: { recursive: boolean }): void;
  };
  mkdir.mkdirSync(dir, { recursive: true });
  const wav = `${dir}/${spec.name}${spec.bars ? `-${spec.bars}bars` : ''}.wav`;
  if (fs.existsSync(wav)) return wav;
  const mid = `${wav}.mid`;
  fs.writeFileSync(mid, beatMidi(spec));
  const part = `${wav}.part.wav`;
  const run = child.spawnSync(
    'fluidsynth',
    ['-ni', '-q', '-g', '0.6', '-r', '44100', '-F', part, SOUNDFONT, mid],
    {
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) throw new Error(`fluidsynth failed on ${spec.name}: ${run.stderr}`);
  const rename = (await import('node:fs' as string)) as { renameSync(a: string, b: string): void };
  rename.renameSync(part, wav);
  return wav;
};

/** aubio's tempo of a file (its `aubio tempo` median of beat periods), or null when aubio is missing. */
export const aubioTempo = async (path: string): Promise<number | null> => {
  const { child } = await loadNodeTools();
  const run = child.spawnSync('aubio', ['tempo', '-i', path], { encoding: 'utf8' });
  if (run.status !== 0) return null;
  const m = /([\d.]+)\s*bpm/.exec(run.stdout);
  return m ? Number(m[1]) : null;
};
