import { useEffect, useRef, useState } from 'react';
import type { SessionView } from '../../../shared/api/sessions';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { formatDate } from '../../lib/format';
import type { MixerController } from './mixer-controller';
import { useSessionAutosave } from './session-autosave';
import { fetchTrackAudio, getTrack, latestSession } from './track-api';

/**
 * Offers the last saved arrangement back ('Saved sessions supply initial clips'): its tracks are fetched
 * from the server and processed like uploads, and its clips replace the default full-length ones.
 */
export function SavedSessionOffer({ controller }: { controller: MixerController }) {
  const [offer, setOffer] = useState<SessionView | null>(null);
  const [restoring, setRestoring] = useState(false);
  const sessionId = useRef<number | null>(null);
  useSessionAutosave(controller, sessionId);

  useEffect(() => {
    let live = true;
    latestSession().then(
      (s) => {
        if (live && s && (s.vocalTrackId !== null || s.instrumentalTrackId !== null)) setOffer(s);
      },
      (error: unknown) => console.warn('Could not read saved sessions', error),
    );
    return () => {
      live = false;
    };
  }, []);

  if (!offer) return null;

  const restore = async () => {
    setRestoring(true);
    try {
      const ids = { vocals: offer.vocalTrackId, instrumental: offer.instrumentalTrackId };
      const files = await Promise.all(
        (['vocals', 'instrumental'] as const).map(async (type) => {
          const id = ids[type];
          if (id === null) return null;
          const track = await getTrack(id);
          const blob = await fetchTrackAudio(track);
          return { type, id, file: new File([blob], track.name, { type: blob.type || track.contentType }) };
        }),
      );
      controller.engine.loadSavedClips(offer.clips);
      if (offer.style) controller.selectStyle(offer.style);
      controller.setOutputVolume(offer.outputVolume);
      controller.selectGenre(offer.genre);
      sessionId.current = offer.id;
      for (const f of files) if (f) controller.loader.upload(f.type, f.file, f.id);
      setOffer(null);
    } catch (error) {
      console.warn('Restoring the session failed', error);
      toast({
        title: 'Error',
        description: 'The saved session could not be restored',
        variant: 'destructive',
      });
    } finally {
      setRestoring(false);
    }
  };

  return (
    <section
      aria-label="Saved session"
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-violet-500/40 bg-violet-950/40 p-4"
    >
      <p className="text-sm text-violet-100">
        Continue where you left off: <span className="font-semibold">{offer.name}</span> (saved{' '}
        {formatDate(offer.updatedAt)})
      </p>
      <div className="flex gap-2">
        <Button size="sm" onClick={() => void restore()} disabled={restoring}>
          {restoring ? 'Restoring...' : 'Restore session'}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setOffer(null)}>
          Dismiss
        </Button>
      </div>
    </section>
  );
}
