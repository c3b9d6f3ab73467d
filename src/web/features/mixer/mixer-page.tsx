import { useEffect, useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';
import { TIER_RULES, tierOf } from '../../../shared/plans';
import { useAuth } from '../../app/auth-context';
import { useDevBypass } from '../../app/dev-bypass';
import { LoggedOutBanner } from '../../components/logged-out-banner';
import { LoadingScreen } from '../../components/ui/spinner';
import { holdForInput, pageCores } from '../../lib/core-budget';
import { usePageTitle } from '../../lib/use-page-title';
import { effectiveGenre } from './flow-state';
import { MixStyleCard } from './genre/mix-style-card';
import { IntroSteps } from './intro-steps';
import { FinalMixPanel } from './mixdown/final-mix-panel';
import { MixPreviewPanel } from './mixdown/mix-preview-panel';
import { MixdownSection } from './mixdown/mixdown-section';
import type { MixerController } from './mixer-controller';
import { MIXER_TEXT } from './mixer-messages';
import { PitchPanel } from './pitch/pitch-panel';
import { SavedSessionOffer } from './session/saved-session';
import { TrackSequencer } from './timeline/track-sequencer';
import { UploadBox } from './upload/upload-box';
import { useFlow, useMixerController } from './use-mixer';
import { useShortcuts } from './use-shortcuts';
import { VocalAnalysisPanel } from './vocal-analysis/vocal-analysis-panel';

/** The mixer screen (spec 2 'Mixer'): dimmed and inert for anonymous visitors, with the log-in banner. */
export function MixerPage() {
  usePageTitle('Mixer');
  const { user } = useAuth();
  const bypass = useDevBypass();
  const [params] = useSearchParams();
  const opening = params.get('session')
    ? `session=${params.get('session')}`
    : params.get('mix')
      ? `mix=${params.get('mix')}`
      : null;
  const controller = useMixerController(user?.id ?? null, opening);
  // The track analyses running in the background hold while a press is handled and drawn (decision 308).
  useEffect(() => holdForInput(pageCores), []);
  // Developer mode exists only when the server's public config enables it.
  const devMode = bypass.devMode && (bypass.active || params.get('dev') === 'true');
  const usable = user !== null || bypass.active;
  const canApply = TIER_RULES[tierOf(user?.subscriptionType ?? null)].canApplySequence;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10" data-state={controller ? 'ready' : 'loading'}>
      {usable ? null : <LoggedOutBanner title={MIXER_TEXT.banner} />}
      <div
        inert={!usable}
        data-testid="mixer"
        className={usable ? 'space-y-8' : 'pointer-events-none space-y-8 opacity-50 select-none'}
      >
        <header>
          <h1 className="text-3xl font-bold text-zinc-50">Mixer</h1>
          <p className="mt-2 text-zinc-300">
            Blend your vocals with an instrumental, arrange clips and export the mix.
          </p>
          {user && !user.hasSubscription ? (
            <p className="mt-2 text-sm text-amber-300">
              Preview Mode: arrange, preview and mix freely; downloads need a Pro or Unlimited plan.
            </p>
          ) : null}
        </header>
        {controller ? (
          <MixerBody
            controller={controller}
            usable={usable}
            canApply={canApply}
            devMode={devMode}
            signedIn={!!user}
          />
        ) : (
          <LoadingScreen />
        )}
      </div>
    </div>
  );
}

interface BodyProps {
  controller: MixerController;
  usable: boolean;
  canApply: boolean;
  devMode: boolean;
  signedIn: boolean;
}

function MixerBody({ controller, usable, canApply, devMode, signedIn }: BodyProps) {
  const flow = useFlow(controller);
  // The beat's detected (or edited) key is the pitch correction's default target (issue 27).
  const songKey = useSyncExternalStore(
    controller.engine.subscribe,
    () => controller.engine.getState().songFacts?.key ?? null,
  );
  useShortcuts(controller, usable);
  return (
    <>
      <IntroSteps />
      {signedIn ? <SavedSessionOffer controller={controller} /> : null}
      <div className="grid gap-4 md:grid-cols-2">
        {(['vocals', 'instrumental'] as const).map((type) => (
          <UploadBox key={type} type={type} slot={flow.tracks[type]} controller={controller} />
        ))}
      </div>
      <VocalAnalysisPanel vocal={flow.vocal} genre={effectiveGenre(flow)} />
      <TrackSequencer controller={controller} canApply={canApply} />
      <MixStyleCard controller={controller} flow={flow} />
      <PitchPanel
        controller={controller}
        settings={flow.pitch}
        vocalLoaded={flow.tracks.vocals.status === 'loaded'}
        songKey={songKey}
      />
      <MixdownSection controller={controller} flow={flow} />
      <FinalMixPanel controller={controller} flow={flow} devMode={devMode} />
      {flow.applied && !flow.finalMix ? <MixPreviewPanel controller={controller} flow={flow} /> : null}
    </>
  );
}
