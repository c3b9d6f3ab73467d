import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { chosenFormats, isSpecFormat } from '../../../../audio';
import type { PublicUser } from '../../../../shared/api/user';
import { toast } from '../../../components/ui/use-toast';
import { userMessage } from '../../../lib/api-client';
import { getQueryFn, USER_QUERY_KEY } from '../../../lib/query-client';
import { saveFile } from '../../../lib/save-file';
import { spendCredit } from '../../../lib/spend-credit';
import type { MixerController } from '../mixer-controller';
import { MIXER_NOTICES, MIXER_TIMEOUTS } from '../mixer-messages';
import { copyForTransfer } from '../upload/audio-buffers';
import { devCredits, spendDevCredit } from './dev-credits';
import { downloadBlock, mixdownFileName } from './download-rules';

export type DownloadPhase = 'idle' | 'checking' | 'choosing' | 'preparing' | 'spending';

/**
 * Download Mix (spec 4, 5, 8): the rules in order against a freshly read account, then the format dialog;
 * on confirm the files are produced, then ONE credit is spent on the server (whatever the number of formats),
 * then the files are saved. A refused spend saves nothing.
 */
export function useMixDownload(controller: MixerController, devMode: boolean) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [phase, setPhase] = useState<DownloadPhase>('idle');

  const start = async () => {
    setPhase('checking');
    const hasMixdown = controller.mixdown.final !== null;
    let user: PublicUser | null = null;
    if (hasMixdown && !devMode) {
      user = await queryClient
        .fetchQuery({
          queryKey: USER_QUERY_KEY,
          queryFn: getQueryFn<PublicUser>({ on401: 'returnNull' }),
          staleTime: 0,
        })
        .catch(() => null);
    }
    const block = downloadBlock({ hasMixdown, user, devCredits: devMode ? devCredits() : null });
    if (!block) return setPhase('choosing');
    setPhase('idle');
    toast({ ...block.notice, variant: 'destructive' });
    if (block.kind === 'login') setTimeout(() => navigate('/auth'), MIXER_TIMEOUTS.loginRedirect);
  };

  const confirm = async (formats: readonly string[]) => {
    const final = controller.mixdown.final;
    if (!final) return void toast({ ...MIXER_NOTICES.noMixdown, variant: 'destructive' });
    setPhase('preparing');
    const files: { name: string; blob: Blob }[] = [];
    try {
      // The mixer offers the spec's two formats only; anything else is skipped like an unknown name.
      for (const format of chosenFormats(formats).filter(isSpecFormat)) {
        // Each encode gets its own copy, moved (not cloned) to the worker.
        const copies = await copyForTransfer(final.channels);
        const blob =
          format === 'wav'
            ? await controller.encoder.wav(copies, final.sampleRate, { transfer: true })
            : await controller.encoder.mp3(copies, final.sampleRate, { transfer: true });
        files.push({ name: mixdownFileName(format), blob });
      }
    } catch (error) {
      setPhase('idle');
      console.warn('Preparing the download failed', error);
      return void toast({
        ...MIXER_NOTICES.downloadFailed(userMessage(error, 'unknown error')),
        variant: 'destructive',
      });
    }
    setPhase('spending');
    try {
      if (devMode) {
        if (!spendDevCredit()) throw new Error(MIXER_NOTICES.noCredits.description);
      } else {
        const trackId = controller.store.getState().finalMix?.trackId ?? null;
        const res = await spendCredit('mix', trackId === null ? undefined : { trackId });
        queryClient.setQueryData(USER_QUERY_KEY, res.user);
        void queryClient.invalidateQueries({ queryKey: ['/api/user-credits'] });
        if (!res.success) throw new Error(res.message);
      }
    } catch (error) {
      setPhase('idle');
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      return void toast({ ...MIXER_NOTICES.creditError(userMessage(error, '')), variant: 'destructive' });
    }
    for (const file of files) await saveFile(file.blob, file.name);
    setPhase('idle');
    toast({ ...MIXER_NOTICES.downloadStarted, description: files.map((f) => f.name).join(', ') });
  };

  const cancel = () => setPhase('idle');

  return { phase, start, confirm, cancel };
}
