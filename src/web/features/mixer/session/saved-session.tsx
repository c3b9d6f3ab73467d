import { memo, useEffect, useState, useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';
import { MIX_STYLES, type MixStyleId } from '../../../../audio/model/mix-styles';
import type { SessionClips, SessionSummary } from '../../../../shared/api/sessions';
import type { SavedSongFacts, TrackView } from '../../../../shared/api/tracks';
import type { Genre } from '../../../../shared/genres';
import { DEFAULT_PITCH_SETTINGS, type PitchSettings } from '../../../../shared/pitch-settings';
import type { VocalChainAmounts } from '../../../../shared/vocal-chain-stages';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { formatDate } from '../../../lib/format';
import type { MixerController } from '../mixer-controller';
import { fetchTrackAudio, getSession, getTrack, recentSessions } from '../upload/track-api';
import { useSessionAutosave } from './session-autosave';

/** How many saved sessions the mixer offers back (the library lists them all). */
const OFFERED = 5;

/** An arrangement to reopen: a saved session's, or a saved mix's (issue 30). */
interface Reopen {
  vocalTrackId: number | null;
  instrumentalTrackId: number | null;
  clips: SessionClips;
  style: MixStyleId | null;
  outputVolume: number;
  /** Issue 26: the genre the mix aimed at (null: follow the beat's suggestion). */
  genre: Genre | null;
  /** Issue 27: the beat's facts as analysed or edited (null: analyse the beat). */
  songFacts: SavedSongFacts | null;
  /** Issue 27: the vocal's pitch correction (null: the defaults, correction off). */
  pitch: PitchSettings | null;
  /** Issue 26's Adjust: the stages turned down, 0..1 (null: every stage as planned). */
  vocalChain: VocalChainAmounts | null;
}

/** The session each controller saves to: it lives as long as the controller (kept across visits). */
const sessionRefs = new WeakMap<MixerController, { current: number | null }>();
const sessionRefOf = (c: MixerController) => {
  const ref = sessionRefs.get(c) ?? { current: null };
  sessionRefs.set(c, ref);
  return ref;
};
/** The library link (`session=12`, `mix=7`) each controller has already opened. */
const openedBy = new WeakMap<MixerController, string>();

/** A saved mix's arrangement (samples) as the mixer's clips (seconds), its style from its vocal share. */
export function reopenOfMix(track: TrackView): Reopen {
  const a = track.arrangement;
  if (!a) throw new Error('This track has no mix arrangement to reopen');
  const clips: SessionClips = { vocals: [], instrumental: [] };
  for (const c of a.clips)
    clips[c.trackType].push({
      id: c.id,
      trackType: c.trackType,
      startTime: c.sourceStart / a.sampleRate,
      endTime: c.sourceEnd / a.sampleRate,
      position: c.position / a.sampleRate,
      selected: false,
    });
  const style = (Object.keys(MIX_STYLES) as MixStyleId[]).find(
    (id) => MIX_STYLES[id].vocalShare === a.vocalShare,
  );
  return {
    vocalTrackId: a.vocalTrackId,
    instrumentalTrackId: a.instrumentalTrackId,
    clips,
    style: style ?? null,
    outputVolume: a.outputVolume,
    genre: a.genre ?? null,
    songFacts: a.songFacts ?? null,
    // A mix is saved with its pitch settings only when it corrected the vocal; absent means off.
    pitch: a.pitch ?? null,
    vocalChain: a.vocalChain ?? null,
  };
}

/** Fetches the arrangement's tracks, processes them like uploads, and lays its clips out. */
async function restore(controller: MixerController, a: Reopen, sessionId: number | null): Promise<void> {
  const ids = { vocals: a.vocalTrackId, instrumental: a.instrumentalTrackId };
  const files = await Promise.all(
    (['vocals', 'instrumental'] as const).map(async (type) => {
      const id = ids[type];
      if (id === null) return null;
      const track = await getTrack(id);
      const blob = await fetchTrackAudio(track);
      return { type, id, file: new File([blob], track.name, { type: blob.type || track.contentType }) };
    }),
  );
  controller.engine.loadSavedClips(a.clips);
  if (a.style) controller.selectStyle(a.style);
  controller.setOutputVolume(a.outputVolume);
  controller.selectGenre(a.genre);
  controller.setPitch(a.pitch ?? DEFAULT_PITCH_SETTINGS);
  controller.restoreVocalChain(a.vocalChain);
  // Before the beat loads: its analysis must not replace the saved facts and the user's edits in them.
  controller.songFacts.restore(a.instrumentalTrackId, a.songFacts);
  sessionRefOf(controller).current = sessionId;
  for (const f of files) if (f) controller.loader.upload(f.type, f.file, f.id);
}

const restoreFailed = (error: unknown) => {
  console.warn('Restoring the session failed', error);
  toast({ title: 'Error', description: 'The saved session could not be restored', variant: 'destructive' });
};

/** True once either slot holds a track: the mixer has work, and offers nothing over it. */
const useHasWork = (c: MixerController) =>
  useSyncExternalStore(c.store.subscribe, () => {
    const { vocals, instrumental } = c.store.getState().tracks;
    return vocals.status !== 'empty' || instrumental.status !== 'empty';
  });

/**
 * Offers the saved arrangements back ('Saved sessions supply initial clips'): the newest as "Continue where
 * you left off", the next few beside it (issue 30: more than one is kept). A library link (?session= or
 * ?mix=) opens that arrangement at once.
 */
// Memoised: its own hooks follow the work and the library; the mixer's flow changes need not re-render it.
export const SavedSessionOffer = memo(function SavedSessionOffer({
  controller,
}: {
  controller: MixerController;
}) {
  const [offers, setOffers] = useState<SessionSummary[]>([]);
  const [restoring, setRestoring] = useState<number | null>(null);
  const [params] = useSearchParams();
  const hasWork = useHasWork(controller);
  useSessionAutosave(controller, sessionRefOf(controller));

  const sessionParam = Number(params.get('session')) || null;
  const mixParam = Number(params.get('mix')) || null;
  const opening = sessionParam ? `session=${sessionParam}` : mixParam ? `mix=${mixParam}` : null;

  useEffect(() => {
    if (!opening || openedBy.get(controller) === opening) return;
    openedBy.set(controller, opening);
    const open = sessionParam
      ? getSession(sessionParam).then((s) => restore(controller, s, s.id))
      : getTrack(mixParam!).then((t) => restore(controller, reopenOfMix(t), null));
    open.catch(restoreFailed);
  }, [controller, opening, sessionParam, mixParam]);

  useEffect(() => {
    if (hasWork || opening) return;
    let live = true;
    recentSessions(OFFERED).then(
      (list) => {
        if (live) setOffers(list.filter((s) => s.vocalTrackId !== null || s.instrumentalTrackId !== null));
      },
      (error: unknown) => console.warn('Could not read saved sessions', error),
    );
    return () => {
      live = false;
    };
  }, [hasWork, opening]);

  if (hasWork || opening || offers.length === 0) return null;

  const pick = async (summary: SessionSummary) => {
    setRestoring(summary.id);
    try {
      const session = await getSession(summary.id);
      await restore(controller, session, session.id);
      setOffers([]);
    } catch (error) {
      restoreFailed(error);
    } finally {
      setRestoring(null);
    }
  };

  const [latest, ...others] = offers;
  return (
    <section
      aria-label="Saved session"
      className="grid gap-3 rounded-xl border border-violet-500/40 bg-violet-950/40 p-4"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-violet-100">
          Continue where you left off: <span className="font-semibold">{latest!.name}</span> (saved{' '}
          {formatDate(latest!.updatedAt)})
        </p>
        <div className="flex gap-2">
          <Button size="sm" onClick={() => void pick(latest!)} disabled={restoring !== null}>
            {restoring === latest!.id ? 'Restoring...' : 'Restore session'}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setOffers([])}>
            Dismiss
          </Button>
        </div>
      </div>
      {others.length > 0 ? (
        <ul className="grid gap-2 border-t border-violet-500/30 pt-3" aria-label="Other saved sessions">
          {others.map((s) => (
            <li
              key={s.id}
              className="flex flex-wrap items-center justify-between gap-2 text-sm text-violet-100"
            >
              <span>
                {s.name} <span className="text-violet-300">(saved {formatDate(s.updatedAt)})</span>
              </span>
              <Button
                size="sm"
                variant="outline"
                aria-label={`Restore ${s.name}, saved ${formatDate(s.updatedAt)}`}
                onClick={() => void pick(s)}
                disabled={restoring !== null}
              >
                {restoring === s.id ? 'Restoring...' : 'Restore'}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
});
