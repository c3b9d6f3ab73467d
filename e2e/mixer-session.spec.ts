import { instrumental, vocal, writeWav } from './helpers/mixer-audio';
import { clip, clipPosition, expectLoaded, seekTo, uploadTrack } from './helpers/mixer-page';
import { expect, registerViaApi, test } from './helpers/web-fixtures';

interface SavedSession {
  id: number;
  vocalTrackId: number | null;
  instrumentalTrackId: number | null;
  clips: { vocals: { id: string; position: number }[]; instrumental: { id: string }[] };
}

test('the arrangement is saved to /api/sessions as it changes and offered back on return', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const dir = testInfo.outputPath('audio');
  await registerViaApi(page);
  await page.goto('/mixer');
  await uploadTrack(page, 'vocals', await writeWav(dir, 'take.wav', vocal(20)));
  await expectLoaded(page, 'vocals');
  await uploadTrack(page, 'instrumental', await writeWav(dir, 'beat.wav', instrumental(30)));
  await expectLoaded(page, 'instrumental');

  await page.getByTestId('sequencer').scrollIntoViewIfNeeded();
  await seekTo(page, 0.125);
  await clip(page, 'vocals-clip').click({ position: { x: 10, y: 20 } });
  await page.getByRole('button', { name: 'Cut at Playhead' }).click();
  await expect(clip(page, 'vocals-clip-2')).toBeVisible();
  const cutAt = await clipPosition(page, 'vocals-clip-2');

  const latest = async (): Promise<SavedSession | null> => {
    const list = (await (await page.request.get('/api/sessions?limit=1')).json()) as {
      sessions: { id: number }[];
    };
    const first = list.sessions[0];
    return first
      ? ((await (await page.request.get(`/api/sessions/${first.id}`)).json()) as SavedSession)
      : null;
  };
  await expect
    .poll(async () => (await latest())?.clips.vocals.map((c) => c.id), { timeout: 20_000 })
    .toEqual(['vocals-clip-1', 'vocals-clip-2']);
  const saved = (await latest())!;
  expect(saved.vocalTrackId).not.toBeNull();
  expect(saved.instrumentalTrackId).not.toBeNull();
  expect(saved.clips.vocals[1]!.position).toBeCloseTo(cutAt, 2);

  // Coming back: the saved arrangement is offered, and restoring it brings the tracks and the cut clips.
  await page.reload();
  await page.getByRole('button', { name: 'Restore session' }).click();
  await expectLoaded(page, 'vocals');
  await expectLoaded(page, 'instrumental');
  await expect(page.getByTestId('upload-vocals')).toContainText('take.wav');
  await expect(clip(page, 'vocals-clip-1')).toBeVisible();
  await expect(clip(page, 'vocals-clip-2')).toBeVisible();
  expect(await clipPosition(page, 'vocals-clip-2')).toBeCloseTo(cutAt, 2);
  await expect(clip(page, 'vocals-clip-2').locator('canvas')).toHaveAttribute('data-state', 'drawn');
});
