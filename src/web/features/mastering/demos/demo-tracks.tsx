import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card';
import { decodeAudio, toAudioBuffer } from '../engine/audio-decode';
import { masterClient } from '../engine/master-job';
import { PRESETS } from '../mastering-constants';
import { MasteringPlayer } from '../player/mastering-player';
import { DEMO_TRACKS } from './demo-tracks-list';

interface Loaded {
  original: AudioBuffer;
  master: AudioBuffer;
}

type Status = { file: string; text: string } | null;

/**
 * For signed-out visitors (spec 2): our own demo tracks, mastered here in the browser by the same engine
 * a signed-in user gets, played before and after.
 */
export function DemoTracks() {
  const [player] = useState(() => new MasteringPlayer());
  const [loaded, setLoaded] = useState<Record<string, Loaded>>({});
  const [playing, setPlaying] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>(null);
  useEffect(() => {
    player.onEnded = () => setPlaying(null);
    return () => player.dispose();
  }, [player]);

  const prepare = async (demo: (typeof DEMO_TRACKS)[number]): Promise<Loaded | null> => {
    const have = loaded[demo.file];
    if (have) return have;
    try {
      setStatus({ file: demo.file, text: 'Loading...' });
      const res = await fetch(demo.file);
      if (!res.ok) throw new Error(`Failed to fetch audio data: ${res.status}`);
      const original = await decodeAudio(await res.blob());
      const preset = PRESETS[demo.preset];
      const channels = Array.from({ length: original.numberOfChannels }, (_, c) =>
        original.getChannelData(c),
      );
      const out = await masterClient().master(channels, original.sampleRate, {
        settings: preset.settings,
        targetLufs: preset.targetLufs,
        onProgress: (p) =>
          setStatus({ file: demo.file, text: `Mastering... ${Math.round(p.fraction * 100)}%` }),
      });
      const next = { original, master: toAudioBuffer(out.channels, original.sampleRate) };
      setLoaded((l) => ({ ...l, [demo.file]: next }));
      setStatus(null);
      return next;
    } catch (error) {
      setStatus({
        file: demo.file,
        text: error instanceof Error ? error.message : 'Failed to load audio file',
      });
      return null;
    }
  };

  const play = async (demo: (typeof DEMO_TRACKS)[number], which: 'original' | 'master') => {
    const track = await prepare(demo);
    if (!track) return;
    if (which === 'original') await player.playOriginal(track.original, null);
    else await player.playMastered(track.master, null, { muted: false, matched: { original: 1, master: 1 } });
    setPlaying(`${demo.file}:${which}`);
  };

  return (
    <Card className="mb-6 grid gap-4" data-testid="demo-tracks">
      <div>
        <CardTitle>Hear it on our demo tracks</CardTitle>
        <CardDescription>
          Each demo is mastered right here in your browser, with the preset named beside it.
        </CardDescription>
      </div>
      <ul className="grid gap-3 md:grid-cols-3">
        {DEMO_TRACKS.map((demo) => (
          <li key={demo.file} className="grid gap-2 rounded-lg border border-zinc-800 p-3">
            <p className="font-medium text-zinc-100">{demo.title}</p>
            <p className="text-xs text-zinc-400">
              {demo.style} · {PRESETS[demo.preset].name} preset
            </p>
            <div className="flex flex-wrap gap-2">
              {(['original', 'master'] as const).map((which) => {
                const key = `${demo.file}:${which}`;
                return playing === key ? (
                  <Button
                    key={which}
                    size="sm"
                    variant="secondary"
                    onClick={() => {
                      player.stop();
                      setPlaying(null);
                    }}
                  >
                    Stop
                  </Button>
                ) : (
                  <Button
                    key={which}
                    size="sm"
                    variant={which === 'master' ? 'primary' : 'outline'}
                    onClick={() => void play(demo, which)}
                  >
                    {which === 'master' ? 'Play mastered' : 'Play original'}
                  </Button>
                );
              })}
            </div>
            {status?.file === demo.file ? (
              <p className="text-xs text-zinc-300" aria-live="polite">
                {status.text}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </Card>
  );
}
