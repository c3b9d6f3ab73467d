/**
 * Two source trees' mastering render, A/B in one browser (`npx tsx bench/master-trees-ab.ts <treeA> <treeB>
 * [seconds]`): each tree's mastering harness is bundled from its own sources and opened in its own page;
 * the rounds (BENCH_RUNS, default 6) run the two-worker render with the analysis from load (what the screen
 * runs) once per tree, in alternating order, and print per tree the wall time and its stages (min / median /
 * max) and the per-round ratio B/A. For a change to the render whose effect is smaller than the machine's
 * drift between two bench runs: both trees meet the same neighbours in every round. The trees need their
 * node_modules (a worktree can link the main checkout's).
 */
import { resolve } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunch } from '../playwright.config';
import { fmtRatio, printEnvironment, spread } from './paired-rounds';

const trees = process.argv.slice(2, 4).map((t) => resolve(t));
const seconds = Number(process.argv[4] ?? 240);
const rounds = Number(process.env.BENCH_RUNS ?? 6);
const preset = process.env.BENCH_PRESET ?? 'balanced';
if (trees.length !== 2) throw new Error('usage: master-trees-ab.ts <treeA> <treeB> [seconds]');

const STAGES: [string, string, string][] = [
  ['copy in', 'start', 'building'],
  ['chain', 'building', 'loudness'],
  ['solve', 'loudness', 'limiting'],
  ['final', 'limiting', 'end'],
];

interface Run {
  ms: number;
  stages: Record<string, number>;
}

const main = async () => {
  const harnesses = [];
  for (const tree of trees) {
    const mod = await import(resolve(tree, 'e2e/audio-harness/harness-server.ts'));
    harnesses.push(await mod.startMasteringHarness());
  }
  const browser = await chromium.launch(chromiumLaunch);
  printEnvironment(browser.version());
  const pages: Page[] = [];
  for (const h of harnesses) {
    const page = await browser.newPage();
    await page.goto(h.url);
    await page.waitForSelector('body[data-state="ready"]', { state: 'attached' });
    await page.evaluate((s) => window.audioHarness.prepare(s), seconds);
    pages.push(page);
  }
  const runs: Run[][] = [[], []];
  const one = (k: number) =>
    pages[k]!.evaluate(([s, p]) => window.audioHarness.masterBench(s, p as 'balanced', true, true, true), [
      seconds,
      preset,
    ] as const);
  try {
    for (let r = 0; r < rounds; r++) {
      for (const k of r % 2 ? [1, 0] : [0, 1]) {
        const res = await one(k);
        runs[k]!.push({ ms: res.ms, stages: { ...res.stages, start: 0, end: res.ms } });
      }
      console.log(
        `round ${r + 1}: A ${Math.round(runs[0]!.at(-1)!.ms)} ms, B ${Math.round(runs[1]!.at(-1)!.ms)} ms`,
      );
    }
  } finally {
    await browser.close();
    for (const h of harnesses) await h.close();
  }
  const fmt = (values: number[]) => {
    const s = spread(values);
    return `${Math.round(s.min)} / ${Math.round(s.median)} / ${Math.round(s.max)}`;
  };
  for (const [k, tree] of trees.entries()) {
    const spans = STAGES.map(
      ([name, from, to]) =>
        `${name} ${fmt(runs[k]!.map((x) => (x.stages[to] ?? NaN) - (x.stages[from] ?? NaN)))}`,
    );
    console.log(`${k ? 'B' : 'A'} ${tree}: ${fmt(runs[k]!.map((x) => x.ms))} ms; ${spans.join('; ')}`);
  }
  console.log(`B/A per round: ${fmtRatio(spread(runs[1]!.map((x, i) => x.ms / runs[0]![i]!.ms)))}`);
};

await main();
