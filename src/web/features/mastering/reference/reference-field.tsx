import { Button } from '../../../components/ui/button';
import { PlainSentence, ShowNumbers } from '../../../components/ui/show-numbers';
import { shownToneMatch } from '../mastering-state';
import { useMasteringState, useStore } from '../use-mastering';
import { brightnessDb, referenceBandNote, referenceSentence } from './reference-notes';

/**
 * Reference mastering (issue 16, manual mode, Unlimited): a second upload whose loudness and mid/side tone
 * the master matches; Tone match is how much of its tone to take.
 */
export function ReferenceField({ locked }: { locked: boolean }) {
  const store = useStore();
  const state = useMasteringState();
  const { reference } = state;
  const own = state.source?.track ?? null;
  const lufs = reference?.track?.integratedLufs;
  const bandNote = reference?.track ? referenceBandNote(reference.name, reference.track) : null;
  return (
    <div
      className="grid gap-1.5 text-sm"
      data-testid="reference"
      data-state={reference?.track ? 'ready' : reference ? 'loading' : 'none'}
    >
      <label htmlFor="reference-file" className="font-medium text-zinc-200">
        Reference track
      </label>
      {reference ? (
        <div className="flex items-center justify-between gap-2 rounded-lg bg-zinc-950/60 px-3 py-2">
          <span className="truncate text-zinc-300" data-testid="reference-name">
            {reference.name}
            {reference.track ? '' : ' · analysing…'}
          </span>
          <Button variant="ghost" size="sm" onClick={() => store.reference.clearReference()}>
            Remove
          </Button>
        </div>
      ) : (
        <input
          id="reference-file"
          type="file"
          accept="audio/*,.wav,.mp3,.ogg,.flac,.aif,.aiff,.aifc,.m4a,.aac"
          disabled={locked}
          className="text-zinc-300 file:mr-3 file:rounded-md file:border-0 file:bg-zinc-800 file:px-3 file:py-1.5 file:text-zinc-100"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void store.reference.loadReference(file);
          }}
        />
      )}
      {reference?.track ? (
        <>
          <PlainSentence className="mt-0">
            {referenceSentence(reference.track, own, shownToneMatch(state))}
          </PlainSentence>
          <ShowNumbers className="gap-1 text-zinc-400">
            <p data-testid="reference-lufs">
              Reference: {lufs !== undefined && Number.isFinite(lufs) ? lufs.toFixed(1) : '-∞'} LUFS
              {own ? ` · your track: ${own.integratedLufs.toFixed(1)} LUFS` : ''}
            </p>
            <p>
              Brightness (2-8 kHz over 60-250 Hz): reference {brightnessDb(reference.track.midDb).toFixed(1)}{' '}
              dB
              {own ? ` · your track ${brightnessDb(own.midDb).toFixed(1)} dB` : ''}
            </p>
          </ShowNumbers>
        </>
      ) : null}
      {bandNote ? (
        <p className="rounded-lg bg-amber-950/40 px-3 py-2 text-amber-200" data-testid="reference-note">
          {bandNote}
        </p>
      ) : null}
      <p className="text-zinc-400">
        Match its loudness and its tone (mid and side); Tone match sets how much.
      </p>
    </div>
  );
}
