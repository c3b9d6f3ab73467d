/**
 * Issue 30, "Plain words and pictures" (decision 253): every analysis and result panel of the mixer and the
 * mastering page opens with one plain sentence, and its numbers appear after one click (a tap on a phone),
 * at 1280 px and at 375 px with touch. A real take (a detuned General MIDI "Voice Oohs" melody rendered by
 * fluidsynth) over a real beat (Debian's asc-music) is mixed, exported to mastering with its stems, given a
 * reference and Vocal space, mastered and encoded to MP3, so every panel has real measurements to say.
 */
import { mkdir } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page, TestInfo } from '@playwright/test';
import {
  A_MINOR_MELODY,
  melodyMidi,
  renderMidi,
  tempDir,
  VOICE_OOHS,
} from '../src/audio/dsp/pitch/sung-melody.test-helper';
import { BEATS, realBeat } from '../src/audio/dsp/vocal-space.test-helper';
import { testWav } from './helpers/mastering-audio';
import { masterTrack, openFold, waitForSource } from './helpers/mastering-page';
import { signUp } from './helpers/mastering-users';
import { writeWav } from './helpers/mixer-audio';
import { createMixdown, loadAndApply } from './helpers/mixer-page';
import { expect, test } from './helpers/web-fixtures';

const RATE = 44_100;

/** One plain sentence: a capital, words, a full stop; no unit said without what it means. */
const expectPlain = (text: string, panel: string) => {
  expect(text, panel).toMatch(/^[A-Z][^\n]{20,}\.$/);
  expect(text, panel).not.toMatch(/\b(dBTP|dBFS|LRA|LU|PLR|BPM)\b/);
  if (text.includes('LUFS'))
    expect(text, panel).toContain('LUFS (loudness as streaming services measure it)');
  // Not a bare figure with a unit.
  expect(text, panel).not.toMatch(/^[\s\d.,:+−-]+(LUFS|dB|%|s)?\.$/);
};

interface PanelCheck {
  name: string;
  panel: Locator;
  /** A number that sits behind the click. */
  numbers: Locator;
  /** What opens the numbers; the panel's "Show the numbers" button by default. */
  opener?: Locator;
}

const checkPanels = async (checks: PanelCheck[], touch: boolean, info: TestInfo) => {
  const said: string[] = [];
  for (const { name, panel, numbers, opener } of checks) {
    await panel.scrollIntoViewIfNeeded();
    const sentence = panel.getByTestId('plain-sentence').first();
    await expect(sentence, name).toBeVisible();
    const text = (await sentence.innerText()).trim();
    expectPlain(text, name);
    said.push(`${name}: ${text}`);
    await expect(numbers, `${name}: numbers folded`).toBeHidden();
    const open = opener ?? panel.getByRole('button', { name: 'Show the numbers' });
    await expect(open, name).toBeVisible();
    // The sentence is the panel's first line: above what opens the numbers.
    const [s, o] = [(await sentence.boundingBox())!, (await open.boundingBox())!];
    expect(s.y, `${name}: sentence above the numbers`).toBeLessThan(o.y);
    if (touch) await open.tap();
    else await open.click();
    await expect(numbers, `${name}: numbers after one click`).toBeVisible();
    if (!opener)
      await expect(panel.getByRole('button', { name: 'Hide the numbers' })).toHaveAttribute(
        'aria-expanded',
        'true',
      );
  }
  info.annotations.push({ type: 'sentences', description: said.join('\n') });
  console.log(said.join('\n'));
};

/** No serious or critical axe findings in the panels, with their numbers open. */
const axe = async (page: Page, testIds: string[]) => {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  for (const id of testIds) builder = builder.include(`[data-testid="${id}"]`);
  const result = await builder.analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad).toEqual([]);
};

const shot = async (page: Page, name: string) => {
  // The sticky header would repeat down a full-page screenshot; toasts would cover the panels.
  await page.addStyleTag({ content: 'header { position: static !important; }' });
  await page.screenshot({ path: `screenshots/${name}.png`, fullPage: true });
};

for (const phone of [false, true]) {
  test.describe(phone ? '375 px, touch' : '1280 px', () => {
    if (phone) test.use({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true });
    else test.use({ viewport: { width: 1280, height: 900 } });
    const width = phone ? 375 : 1280;

    test(`every mixer and mastering panel opens with a plain sentence, numbers one ${phone ? 'tap' : 'click'} away`, async ({
      page,
    }, info) => {
      test.setTimeout(600_000);
      const dir = info.outputPath('audio');
      await mkdir(dir, { recursive: true });
      const melody = renderMidi(tempDir(), 'melody', melodyMidi(A_MINOR_MELODY, VOICE_OOHS));
      const beat = await realBeat(BEATS[0]!, RATE, 20, melody.length);
      if (!beat) throw new Error(`ffmpeg could not decode ${BEATS[0]}`);
      const vocalPath = await writeWav(dir, 'melody.wav', { sampleRate: RATE, channels: [melody] });
      const beatPath = await writeWav(dir, 'beat.wav', { sampleRate: RATE, channels: beat });

      // The mixer: vocal analysis, song facts, pitch correction, then the mixdown's "What the mix did".
      await signUp(page, 'unlimited');
      await page.goto('/mixer');
      await loadAndApply(page, vocalPath, beatPath);
      const vocal = page.getByTestId('vocal-analysis');
      await expect(vocal).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
      await expect(page.getByTestId('song-facts-summary')).toHaveText(/ BPM$/, { timeout: 60_000 });
      const pitch = page.getByTestId('pitch-panel');
      await pitch.getByLabel('Key and scale').selectOption({ label: 'A minor' });
      await pitch.getByLabel('Amount').fill('100');
      await expect(pitch.getByTestId('plain-sentence')).toContainText('lands', { timeout: 60_000 });
      await createMixdown(page, 180_000);
      await expect(page.getByTestId('mix-moves')).toBeVisible();
      await expect(page.getByText('Your mixdown is ready')).toHaveCount(0, { timeout: 30_000 });

      await checkPanels(
        [
          {
            name: 'What we hear in your vocal',
            panel: vocal,
            numbers: vocal.locator('[data-finding] dl').first(),
            opener: vocal.locator('[data-finding] summary').first(),
          },
          {
            name: 'Song facts',
            panel: page.getByTestId('song-facts'),
            numbers: page.getByTestId('song-facts-confidence'),
          },
          { name: 'Pitch Correction', panel: pitch, numbers: pitch.getByTestId('pitch-numbers') },
          {
            name: 'What the mix did',
            panel: page.getByTestId('mix-moves'),
            numbers: page.getByTestId('mix-moves').locator('[data-stage="Cleanup"]'),
          },
        ],
        phone,
        info,
      );
      await axe(page, ['vocal-analysis', 'song-facts', 'pitch-panel', 'final-mix']);
      await shot(page, `plain-sentences-mixer-${width}`);

      // The mastering page with the mix's stems: a reference, Vocal space, a master, an MP3 encode.
      await page.getByTestId('final-mix').getByRole('link', { name: 'Export to Mastering' }).click();
      await waitForSource(page);
      await expect(page.getByTestId('versions-panel')).toHaveAttribute('data-state', 'ready', {
        timeout: 120_000,
      });
      await page.getByLabel('Mode').selectOption('manual');
      await page.getByLabel('Reference track').setInputFiles(testWav(`plain-ref-${width}`, 'club', 16));
      const reference = page.getByTestId('reference');
      await expect(reference).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
      const space = page.getByTestId('vocal-space');
      await page.getByLabel('Vocal space').focus();
      await page.keyboard.press('End');
      await expect(space).toHaveAttribute('data-state', 'ready', { timeout: 120_000 });
      await masterTrack(page, 300_000);
      for (const fold of ['platform', 'codec', 'why', 'analysis', 'loudness']) await openFold(page, fold);
      const mp3 = page.getByTestId('codec-mp3-320');
      await mp3.getByRole('button', { name: 'Encode' }).click();
      await expect(mp3).toHaveAttribute('data-state', 'ready', { timeout: 120_000 });
      // The toasts go by themselves (5 s): none covers a panel.
      await expect(page.locator('li[data-variant]')).toHaveCount(0, { timeout: 30_000 });

      const byId = (id: string) => page.getByTestId(id);
      await checkPanels(
        [
          { name: 'Genre', panel: byId('genre-panel'), numbers: byId('genre-reason') },
          { name: 'Reference', panel: reference, numbers: byId('reference-lufs') },
          { name: 'Vocal space', panel: space, numbers: byId('vocal-clarity') },
          { name: 'Versions', panel: byId('versions-panel'), numbers: page.locator('[data-version="main"]') },
          {
            name: 'How it will play',
            panel: byId('platform-panel'),
            numbers: byId('platform-panel').getByText(/^This master measures/),
          },
          { name: 'Codec preview', panel: byId('codec-panel'), numbers: byId('codec-mp3-320-true-peak') },
          { name: 'Why it sounds like this', panel: byId('why-panel'), numbers: byId('why-input') },
          { name: 'Track analysis', panel: byId('analysis-summary'), numbers: byId('analysis-lra') },
          { name: 'Loudness and spectrum', panel: byId('loudness-panel'), numbers: byId('original-lufs') },
        ],
        phone,
        info,
      );
      await axe(page, [
        'mastering-controls',
        'versions-panel',
        'platform-panel',
        'codec-panel',
        'why-panel',
        'analysis-summary',
        'loudness-panel',
      ]);
      await shot(page, `plain-sentences-mastering-${width}`);
    });
  });
}
