import type { MasterMeta } from '../../../shared/api/library';
import type { MasteringState, MasterResult } from '../mastering/mastering-state';

const round = (n: number, digits = 1) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);

/**
 * What the library shows of a master (issue 30): how it was made (preset or manual, its settings, the
 * genre, the reference) and what it measured. Descriptive only: what was paid for comes from the ledger.
 */
export function masterMetaOf(state: MasteringState, result: MasterResult): MasterMeta {
  const loudness = result.analysis?.loudness;
  const settings: MasterMeta['settings'] = { mode: state.mode };
  for (const [name, value] of Object.entries(result.settings))
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string')
      settings[name] = typeof value === 'number' ? round(value, 2) : value;
  if (state.vocalSpace.amount > 0) settings.vocalSpace = state.vocalSpace.amount;
  return {
    name: `${state.source?.name ?? 'Master'} (${result.name})`.slice(0, 200),
    preset: result.key.slice(0, 60),
    genre: state.source?.arrangement?.genre ?? null,
    referenceName: state.reference?.name ?? null,
    settings,
    figures: {
      targetLufs: round(result.targetLufs),
      lufs: loudness ? round(loudness.integratedLufs) : round(result.report.predictedLufs),
      truePeakDbtp: loudness ? round(loudness.truePeakDbtp) : null,
      loudnessRangeLu: loudness ? round(loudness.loudnessRangeLu) : null,
      gainDb: round(result.report.gainDb),
      seconds: round(result.buffer.duration),
      sampleRate: result.buffer.sampleRate,
    },
  };
}
