import { PLANS } from '../../../../shared/plans';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { RangeField, SelectField } from '../common/form-controls';
import { LivePreviewToggle } from '../common/live-preview';
import { GenreField } from '../genre/genre-field';
import { type MasteringMode, PRESET_IDS, PRESETS, type PresetId, SLIDERS } from '../mastering-constants';
import { canUseManual, TARGET_CHOICES, type TargetChoice } from '../mastering-rules';
import { shownSettings, shownToneMatch } from '../mastering-state';
import { TEXT } from '../mastering-texts';
import { ReferenceField } from '../reference/reference-field';
import { referenceTargetNote } from '../reference/reference-notes';
import type { Access } from '../use-mastering';
import { useMasteringState, useStore } from '../use-mastering';
import { VocalSpaceControl } from '../vocal-space/vocal-space-control';
import { ManualLockedHint } from './manual-locked-hint';

/** Spec 2 'Mastering Controls': preset, mode, target, the five sliders, Master Track and its progress. */
export function ControlsCard({ access }: { access: Access }) {
  const store = useStore();
  const state = useMasteringState();
  const manualAllowed = canUseManual(access.user);
  // Controls the plan does not include are disabled and name the plan that has them (issue 30).
  const lockedTo = manualAllowed ? undefined : PLANS.unlimited.name;
  const settings = shownSettings(state);
  const targetLufs = store.controls.targetLufs();
  const running = state.status?.running === true;
  // A reference's loudness replaces the chosen target (decision 114); the page says so (decision 243).
  const fromReference =
    state.mode === 'manual' && Number.isFinite(state.reference?.track?.integratedLufs ?? NaN);
  const targetLabel = TARGET_CHOICES.find((t) => t.id === state.target)?.label ?? '';
  return (
    <Card className="grid gap-5 p-4 sm:p-6" data-testid="mastering-controls">
      <CardTitle>Mastering Controls</CardTitle>
      <SelectField
        id="preset"
        label="Preset"
        value={state.preset}
        onChange={(v) => store.controls.setPreset(v as PresetId)}
        hint={
          <p className="text-sm text-zinc-400" data-testid="preset-description">
            {PRESETS[state.preset].description}
          </p>
        }
      >
        {PRESET_IDS.map((id) => (
          <option key={id} value={id}>
            {PRESETS[id].name}
          </option>
        ))}
      </SelectField>
      <SelectField
        id="mode"
        label="Mode"
        value={state.mode}
        onChange={(v) => store.controls.setMode(v as MasteringMode)}
        hint={manualAllowed ? null : <ManualLockedHint />}
      >
        <option value="automatic">{TEXT.modeAutomatic}</option>
        <option value="manual" disabled={!manualAllowed}>
          {TEXT.modeManual}
        </option>
      </SelectField>
      <SelectField
        id="target"
        label="Loudness target"
        value={state.target}
        onChange={(v) => store.controls.setTarget(v as TargetChoice)}
        hint={
          fromReference ? (
            <p className="text-sm text-amber-200" data-testid="target-lufs" data-source="reference">
              {referenceTargetNote(targetLufs, targetLabel)}; true peak at most -1 dBTP
            </p>
          ) : (
            <p className="text-sm text-zinc-400" data-testid="target-lufs">
              Master to {targetLufs.toFixed(1)} LUFS, true peak at most -1 dBTP
            </p>
          )
        }
      >
        {TARGET_CHOICES.map((t) => (
          <option key={t.id} value={t.id}>
            {t.label}
          </option>
        ))}
      </SelectField>
      <fieldset className="grid gap-3" data-testid="manual-sliders" data-mode={state.mode}>
        <legend className="mb-2 text-sm font-medium text-zinc-200">
          {state.mode === 'manual' ? 'Manual settings' : `${PRESETS[state.preset].name} preset settings`}
        </legend>
        {SLIDERS.map((s) => (
          <RangeField
            key={s.key}
            id={`slider-${s.key}`}
            label={s.label}
            value={settings[s.key]}
            lockedTo={lockedTo}
            onChange={(v) => store.controls.setSlider(s.key, v)}
          />
        ))}
        <RangeField
          id="slider-toneMatch"
          label="Tone match"
          suffix=" %"
          value={shownToneMatch(state)}
          lockedTo={lockedTo}
          onChange={(v) => store.controls.setSlider('toneMatch', v)}
        />
        {state.mode === 'manual' ? (
          <LivePreviewToggle
            checked={state.livePreview}
            onChange={(on) => store.playback.setLivePreview(on)}
          />
        ) : null}
        {state.mode === 'manual' ? <ReferenceField locked={!manualAllowed} /> : null}
      </fieldset>
      <GenreField />
      <VocalSpaceControl />
      {/* On a phone the button stays in sight at the bottom while the controls are (decision 242). */}
      <Button
        size="lg"
        className="sticky bottom-3 z-10 shadow-lg shadow-black/60 lg:static lg:shadow-none"
        onClick={() => void store.mastering.master()}
        disabled={running}
        data-testid="master-track"
      >
        {TEXT.masterTrack}
      </Button>
      <MasterProgress />
    </Card>
  );
}

function MasterProgress() {
  const { status } = useMasteringState();
  if (!status) return null;
  return (
    <div
      className="grid gap-1.5"
      data-testid="master-progress"
      data-state={status.running ? 'running' : 'done'}
    >
      <ProgressBar percent={status.percent} label="Mastering progress" />
      <p className="text-sm text-zinc-300" data-testid="master-status" aria-live="polite">
        {status.message}
      </p>
    </div>
  );
}
