/**
 * Issue 26's "What the mix did": every move of the adaptive vocal chain with its number, in the order the
 * stages run, like the mastering page's "Why it sounds like this". Pure, for the panel and its test.
 */
import type { VocalChainReport } from '../../../../audio';
import { GENRE_LABELS } from '../../../../shared/genres';

export interface MixMove {
  stage: 'Cleanup' | 'Level riding' | 'EQ' | 'De-esser' | 'Compression' | 'Space' | 'Unmasking';
  text: string;
}

const signed = (db: number, digits = 1) =>
  `${db > 0 ? '+' : db < 0 ? '−' : ''}${Math.abs(db).toFixed(digits)} dB`;
const hz = (f: number) => (f >= 1000 ? `${Number((f / 1000).toFixed(1))} kHz` : `${Math.round(f)} Hz`);
const bandText = (lo: number, hi: number) =>
  lo >= 1000 ? `${Number((lo / 1000).toFixed(1))}–${hz(hi)}` : `${hz(lo)}–${hz(hi)}`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const mixMoves = (r: VocalChainReport): MixMove[] => {
  const moves: MixMove[] = [];
  const cleanup = [`noise in the pauses ${signed(r.noiseRemovedDb)}`];
  if (r.breathsLowered > 0)
    cleanup.push(`${plural(r.breathsLowered, 'breath')} lowered ${Math.abs(r.breathLowerDb).toFixed(1)} dB`);
  if (r.clicksRepaired > 0) cleanup.push(`${plural(r.clicksRepaired, 'click')} repaired`);
  if (r.clippedRepaired > 0) cleanup.push(`${plural(r.clippedRepaired, 'clipped peak')} repaired`);
  moves.push({ stage: 'Cleanup', text: cleanup.join(', ') });
  moves.push({
    stage: 'Level riding',
    text: `phrases and words ridden from ${signed(r.ridingMinDb)} to ${signed(r.ridingMaxDb)}`,
  });
  moves.push({
    stage: 'EQ',
    text:
      r.eqMoves.length === 0
        ? 'no moves needed'
        : r.eqMoves
            .map(
              (m) =>
                `${m.band === 'highpass' ? 'high-pass' : m.band} ${hz(m.frequencyHz)}${m.band === 'highpass' ? '' : ` ${signed(m.gainDb)}`}${m.dynamic ? ' (dynamic)' : ''}`,
            )
            .join(', '),
  });
  moves.push({
    stage: 'De-esser',
    text: r.deEssBandHz
      ? `${bandText(r.deEssBandHz[0], r.deEssBandHz[1])}, up to ${signed(-Math.abs(r.deEssMaxDb))} (average ${signed(-Math.abs(r.deEssMeanDb))})`
      : 'off: no sibilant band found',
  });
  moves.push({
    stage: 'Compression',
    text: `${r.compressorRatio.toFixed(1)}:1, up to ${signed(-Math.abs(r.compressorMaxDb))} of gain reduction`,
  });
  const delay =
    r.delayWet > 0
      ? `, delay ${Math.round(r.delaySeconds * 1000)} ms${r.tempoBpm ? ` (${Math.round(r.tempoBpm)} BPM)` : ''}`
      : '';
  moves.push({
    stage: 'Space',
    text: `reverb ${r.reverbDecaySeconds.toFixed(1)} s at ${Math.round(r.reverbWet * 100)}%${delay}, ducked up to ${signed(-Math.abs(r.spaceDuckMaxDb))} while the voice sings`,
  });
  moves.push({
    stage: 'Unmasking',
    text:
      r.unmaskingAmount > 0
        ? `the beat gives way by up to ${signed(-Math.abs(r.unmaskingMaxDb))} in the voice's band while it sings`
        : 'off for this mix style',
  });
  return moves;
};

export const mixMovesTitle = (r: VocalChainReport): string => `Aimed at ${GENRE_LABELS[r.genre]}`;
