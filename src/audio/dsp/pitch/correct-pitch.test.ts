import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PitchSettings } from '../../../shared/pitch-settings';
import { correctPitch } from './correct-pitch';
import { nearestScaleNote, scalePitchClasses } from './correction-curve';
import { trackPitch } from './pitch-track';
import {
  A_MINOR_MELODY,
  aubioPitch,
  CHOIR_AAHS,
  centsOffPerNote,
  melodyMidi,
  renderMidi,
  tempDir,
  VOICE_OOHS,
} from './sung-melody.test-helper';

const SR = 44_100;
const A_MINOR = { tonic: 9, mode: 'minor' } as const;
const FULL: PitchSettings = { amount: 100, retuneMs: 40, humanize: 50, key: A_MINOR, followSongKey: false };
const classes = scalePitchClasses(A_MINOR);

let dir = '';
const material: Record<string, Float32Array> = {};

beforeAll(() => {
  dir = tempDir();
  material.oohs = renderMidi(dir, 'oohs', melodyMidi(A_MINOR_MELODY, VOICE_OOHS));
  material.vibrato = renderMidi(dir, 'vibrato', melodyMidi(A_MINOR_MELODY, VOICE_OOHS, 30));
  material.choir = renderMidi(dir, 'choir', melodyMidi(A_MINOR_MELODY, CHOIR_AAHS));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('pitch correction of a detuned melody, measured by aubiopitch', () => {
  const cases: [string, PitchSettings, number][] = [
    ['oohs', FULL, 5],
    ['choir', FULL, 5],
    // With vibrato, humanize 0 takes the vibrato out and the note lands within 5 cents; humanize 50 keeps
    // half of a vibrato that starts mid-note, so the median over a note's middle sits a few cents off.
    ['vibrato', { ...FULL, humanize: 0, retuneMs: 20 }, 5],
    ['vibrato', FULL, 8],
  ];
  for (const [name, settings, bound] of cases) {
    it(`brings ${name} (20-40 cents off) within ${bound} cents of A minor, humanize ${settings.humanize}`, async () => {
      const input = material[name]!;
      const before = centsOffPerNote(aubioPitch(dir, `${name}-in`, input, SR), A_MINOR_MELODY, classes);
      const { channels } = await correctPitch([input], SR, settings);
      const after = centsOffPerNote(
        aubioPitch(dir, `${name}-out`, channels[0]!, SR),
        A_MINOR_MELODY,
        classes,
      );
      console.info(
        `${name} humanize ${settings.humanize}: median cents off before ${before.median.toFixed(1)}, after ${after.median.toFixed(1)};`,
        `per note after ${after.perNote.map((c) => c.toFixed(1)).join(' ')}`,
      );
      expect(before.median).toBeGreaterThan(18);
      expect(after.median).toBeLessThan(bound);
      // Notes land on the scale note nearest to where they were sung (not on a neighbour); notes sung within
      // 10 cents of the midpoint between two scale notes may go either way.
      const clear = before.noteMedians
        .map((m, i) => [m, after.noteMedians[i]!] as const)
        .filter(([m]) => Math.abs(Math.abs(m - nearestScaleNote(m, classes)) - 0.5) > 0.1);
      const landed = clear.filter(([m, out]) => Math.round(out) === nearestScaleNote(m, classes));
      expect(landed.length / clear.length).toBeGreaterThanOrEqual(0.85);
    });
  }

  it("tracks the same pitch with a worker's checkpoints in its frame loop, called all through it", async () => {
    const input = material.oohs!;
    const plain = await trackPitch(input, SR);
    let calls = 0;
    const held = await trackPitch(input, SR, { checkpoint: () => calls++ });
    expect(held).toEqual(plain);
    // One per 32 frames of the tracker's hop and per 65 536 samples of each of the decimating filter's two
    // sections: a press never waits on more than a few milliseconds of either.
    expect(calls).toBe(Math.floor(plain.f0.length / 32) + 2 * Math.floor(input.length / 65_536));
  });

  it('at amount 0 returns the input bit for bit', async () => {
    const input = material.oohs!;
    const { channels } = await correctPitch([input], SR, { ...FULL, amount: 0 });
    expect(channels[0]).toBe(input);
    expect(Buffer.compare(Buffer.from(channels[0]!.buffer), Buffer.from(input.buffer))).toBe(0);
  });

  it('robot (retune 0, humanize 0) flattens the vibrato; humanize 100 keeps it', async () => {
    const input = material.vibrato!;
    const spread = (signal: Float32Array, tag: string) => {
      const measured = aubioPitch(dir, tag, signal, SR);
      const devs: number[] = [];
      for (const note of A_MINOR_MELODY) {
        const inside = measured.filter(([t, m]) => t > note.start + 0.2 && t < note.start + 0.42 && m > 20);
        const ms = inside.map(([, m]) => m);
        devs.push((Math.max(...ms) - Math.min(...ms)) * 100);
      }
      devs.sort((a, b) => a - b);
      return devs[devs.length >> 1]!;
    };
    const robot = await correctPitch([input], SR, { ...FULL, retuneMs: 0, humanize: 0 });
    const human = await correctPitch([input], SR, { ...FULL, retuneMs: 40, humanize: 100 });
    const sIn = spread(input, 'vib-in');
    const sRobot = spread(robot.channels[0]!, 'vib-robot');
    const sHuman = spread(human.channels[0]!, 'vib-human');
    console.info(
      `vibrato peak-to-peak cents: input ${sIn.toFixed(0)}, robot ${sRobot.toFixed(0)}, humanize ${sHuman.toFixed(0)}`,
    );
    expect(sRobot).toBeLessThan(sIn * 0.4);
    expect(sHuman).toBeGreaterThan(sIn * 0.7);
  });
});
