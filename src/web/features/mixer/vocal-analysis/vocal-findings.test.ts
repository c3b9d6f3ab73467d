/**
 * The plain words of the vocal analysis (issue 26) on the espeak-ng dirty take: hiss at −50 dBFS, one
 * sentence 8 dB quieter, breaths, sibilant lines.
 */
import { describe, expect, it } from 'vitest';
import { analyseVocal } from '../../../../audio/dsp/vocal/analyse-vocal';
import { dirtyTake } from '../../../../audio/dsp/vocal/dirty-take.test-helper';
import { vocalFindings } from './vocal-findings';

describe('vocalFindings', () => {
  it('names the hiss, the quiet phrase, the breaths and the sibilance of the dirty take', async () => {
    const take = await dirtyTake();
    if (!take) throw new Error('espeak-ng and ffmpeg are needed for the dirty take');
    const analysis = analyseVocal([take.vocal], take.sampleRate, 'pop');
    const findings = vocalFindings(analysis, 'pop');
    const text = (id: string) => findings.find((f) => f.id === id)?.text ?? '';
    console.log(findings.map((f) => f.text).join('\n'));
    expect(text('noise')).toMatch(/^Steady hiss around −(4[7-9]|5[0-3]) dBFS — we'll clean it$/);
    expect(text('phrases')).toMatch(/^One phrase ([6-9]|10) dB quieter than the rest — we'll ride it up$/);
    expect(text('breaths')).toMatch(/^\d+ breaths? — we'll lower them, not remove them$/);
    expect(text('sibilance')).toMatch(/^Sibilance at [\d.]+–[\d.]+ kHz, /);
    expect(text('peaks')).toMatch(/dBTP, no clipping$/);
    // Every finding has its numbers one click away.
    for (const f of findings) expect(f.numbers.length).toBeGreaterThan(0);
  }, 60_000);

  it('reads the balance against the chosen genre without a new analysis', async () => {
    const take = await dirtyTake();
    if (!take) throw new Error('espeak-ng and ffmpeg are needed for the dirty take');
    const analysis = analyseVocal([take.vocal], take.sampleRate, 'pop');
    const air = analysis.balance.find((b) => b.band === 'air')!;
    // The same band reads differently against two genres' targets when their air targets differ.
    const forGenre = (g: 'hiphop' | 'jazz') => vocalFindings(analysis, g).find((f) => f.id === 'balance-air');
    console.log('air', air.levelDb, forGenre('hiphop')?.text, '|', forGenre('jazz')?.text);
    expect(forGenre('hiphop')?.numbers[1]?.value).not.toBe(forGenre('jazz')?.numbers[1]?.value ?? 'none');
  }, 60_000);

  it('says a clean, even take needs no cleaning or riding', () => {
    const rate = 44_100;
    const x = new Float32Array(3 * rate);
    let seed = 3;
    for (let i = 0; i < x.length; i++) {
      // A quiet room: white noise at about −90 dBFS under a steady harmonic tone from 0.5 to 2.5 s.
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      const room = (seed / 4_294_967_296 - 0.5) * 1e-4;
      let v = 0;
      for (let h = 1; h <= 10; h++) v += Math.sin((2 * Math.PI * 150 * h * i) / rate) / h;
      x[i] = room + (i > rate / 2 && i < 2.5 * rate ? 0.2 * v : 0);
    }
    const findings = vocalFindings(analyseVocal([x], rate, 'pop'), 'pop');
    expect(findings.find((f) => f.id === 'noise')?.acts).toBe(false);
    expect(findings.find((f) => f.id === 'noise')?.text).toMatch(
      /^Quiet background \(−9\d dBFS\) — nothing to clean$/,
    );
    expect(findings.find((f) => f.id === 'phrases')?.acts).toBe(false);
  });
});
