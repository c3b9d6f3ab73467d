import { useEffect, useRef } from 'react';
import { selectSpecClips, type TRACK_TYPES } from '../../../../audio';
import type { SessionInput } from '../../../../shared/api/sessions';
import { songFactsSchema } from '../../../../shared/api/tracks';
import { vocalChainAmounts } from '../flow-state';
import type { MixerController } from '../mixer-controller';
import { saveSession } from '../upload/track-api';

/** Edits come in bursts (a drag, a run of cuts): the arrangement is saved once things settle. */
export const AUTOSAVE_DELAY_MS = 1500;

const savableFacts = (facts: unknown) => {
  const parsed = songFactsSchema.safeParse(facts);
  return parsed.success ? parsed.data : null;
};

/** The arrangement as the sessions API stores it; null until a saved track exists to refer to. */
export const sessionBodyOf = (c: MixerController): SessionInput | null => {
  const flow = c.store.getState();
  const { vocals, instrumental } = flow.tracks;
  if (vocals.trackId === null && instrumental.trackId === null) return null;
  const clips = selectSpecClips(c.engine.getState());
  // A clip end converts back from samples at the context's rate; never report a source shorter than it.
  const duration = (type: (typeof TRACK_TYPES)[number]) =>
    Math.max(flow.tracks[type].durationSeconds, ...clips[type].map((clip) => clip.endTime));
  return {
    name: [vocals.fileName, instrumental.fileName].filter(Boolean).join(' + ') || 'Mixer session',
    vocalTrackId: vocals.trackId,
    instrumentalTrackId: instrumental.trackId,
    vocalDuration: duration('vocals'),
    instrumentalDuration: duration('instrumental'),
    clips,
    style: flow.style,
    outputVolume: flow.outputVolume,
    genre: flow.genre,
    // Issue 27: the beat's facts as analysed or edited, and the pitch correction, come back on restore.
    // Facts the server would refuse (an analysis of silence, say) are left out rather than the whole session.
    songFacts: savableFacts(c.songFacts.current()),
    pitch: flow.pitch,
    // Issue 26's Adjust: only the stages turned down, as the mix arrangement keeps them; null when none.
    vocalChain: vocalChainAmounts(flow) ?? null,
  };
};

/** Saves the arrangement to /api/sessions after each settled change (POST once, then PUT). */
export const useSessionAutosave = (controller: MixerController, sessionId: { current: number | null }) => {
  const lastSaved = useRef('');
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let saving = false;
    const save = async () => {
      timer = null;
      const body = sessionBodyOf(controller);
      if (!body || saving) return;
      const json = JSON.stringify(body);
      if (json === lastSaved.current) return;
      saving = true;
      try {
        const saved = await saveSession(sessionId.current, body);
        sessionId.current = saved.id;
        lastSaved.current = json;
      } catch (error) {
        console.warn('Saving the session failed', error);
      } finally {
        saving = false;
      }
    };
    const schedule = () => {
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => void save(), AUTOSAVE_DELAY_MS);
    };
    const offEngine = controller.engine.subscribe(schedule);
    const offFlow = controller.store.subscribe(schedule);
    // Issue 30: the controller outlives the screen; a change made just before a return visit is saved now.
    schedule();
    return () => {
      offEngine();
      offFlow();
      // Leaving with a change not yet saved: saved now rather than lost.
      if (timer !== null) {
        clearTimeout(timer);
        void save();
      }
    };
  }, [controller, sessionId]);
};
