/**
 * The two-worker mastering render's halves (decision 141). The chain kernel is cut in two (MasteringProcessor
 * `front`: high-pass, corrective EQ, compressor or multiband crossover and the low band's compressor;
 * `back`: the other bands' compressors and the sum, shelves, presence, width with mono bass) and the
 * processed signal's block analysis goes with the back. Each half keeps its own state and sees the same
 * blocks in the same order as the one-worker render, so the output is the same, bit for bit. The loudness solve
 * runs in one worker, its block true peaks at every gain it tries found by both (decision 317,
 * true-peak-share.ts), and the final gain pass is split by time (neither has state across blocks).
 */
import { BlockHandover, type HandoverMemory, WAKE_BATCH } from './block-handover';
import { ChainStats, type CompressorDynamics } from './dynamics-stats';
import { BlockAnalysis } from './loudness-target';
import {
  BLOCK,
  type MasteringProgress,
  type MasterRenderOptions,
  planFor,
  renderSteps,
  YIELD_FRAMES,
} from './mastering-chain';
import { MasteringProcessor } from './mastering-processor';
import type { TrackAnalysis } from './track-analysis';

/** What both halves need: the input's shape, the options and the analysis the adaptive plan is made from. */
export interface ChainHalfSetup {
  sampleRate: number;
  channels: number;
  frames: number;
  options: MasterRenderOptions;
  analysis: TrackAnalysis;
}

const processorFor = (setup: ChainHalfSetup) =>
  new MasteringProcessor(
    setup.sampleRate,
    setup.channels,
    setup.options.settings,
    planFor(setup.analysis, setup.channels, setup.options),
  );

/** The front half, block after block. */
export class ChainFront {
  readonly #processor: MasteringProcessor;
  /** The single-band compressor runs here (decision 126's statistics). */
  readonly stats = new ChainStats();

  constructor(setup: ChainHalfSetup) {
    this.#processor = processorFor(setup);
    this.#processor.attachStats(this.stats);
  }

  block(channels: readonly Float32Array[], start: number, end: number, slot?: Float32Array[][]): void {
    this.#processor.front(channels, start, end, this.#processor.splitsBands ? slot : undefined);
  }
}

/** The back half, block after block, measuring what it produces. */
export class ChainBack {
  readonly #processor: MasteringProcessor;
  readonly analysis: BlockAnalysis;
  /** The bands' compressors run here (decision 126's statistics). */
  readonly stats = new ChainStats();

  constructor(setup: ChainHalfSetup) {
    this.#processor = processorFor(setup);
    this.#processor.attachStats(this.stats);
    // On shared memory: the other worker reads the measurement as it is (decision 323).
    this.analysis = new BlockAnalysis(setup.sampleRate, setup.channels, setup.frames, true);
  }

  block(channels: readonly Float32Array[], start: number, end: number, slot?: Float32Array[][]): void {
    this.#processor.back(channels, start, end, this.#processor.splitsBands ? slot : undefined);
    this.analysis.push(channels, start, end);
  }

  /** What the back measured, for the solve and its helper: the analysis's own arrays, already shared. */
  get measurement(): ProcessedMeasurement {
    return { energy: this.analysis.energy, sampleMax: this.analysis.sampleMax };
  }
}

/** Runs the front over the whole track in this worker, handing blocks over as they are done. */
export const runChainFront = (
  channels: readonly Float32Array[],
  setup: ChainHalfSetup,
  memory: HandoverMemory,
  onProgress?: (progress: MasteringProgress) => void,
): CompressorDynamics => {
  const handover = new BlockHandover(memory);
  const { report } = renderSteps({ onProgress });
  const front = new ChainFront(setup);
  try {
    for (let start = 0; start < setup.frames; start += BLOCK) {
      const end = Math.min(setup.frames, start + BLOCK);
      handover.waitForSpace(start);
      handover.waitForInput(end);
      front.block(channels, start, end, handover.slot(start));
      handover.publish(end);
      if ((end & (YIELD_FRAMES - 1)) === 0 || end === setup.frames) report('processing', end / setup.frames);
    }
  } catch (error) {
    handover.stop();
    throw error;
  }
  return front.stats.compressors();
};

/** The back's measurement of the processed signal per limiter block, on shared memory for both workers. */
export interface ProcessedMeasurement {
  energy: Float64Array;
  sampleMax: Float64Array;
}

/** Runs the back over the whole track in this worker, block by block as the front hands them over. */
export const runChainBack = (
  channels: readonly Float32Array[],
  setup: ChainHalfSetup,
  memory: HandoverMemory,
): ChainBack => {
  const handover = new BlockHandover(memory);
  const back = new ChainBack(setup);
  try {
    for (let start = 0; start < setup.frames; start += BLOCK) {
      const end = Math.min(setup.frames, start + BLOCK);
      handover.waitForBlock(end, Math.min(setup.frames, end + (WAKE_BATCH - 1) * BLOCK));
      back.block(channels, start, end, handover.slot(start));
      handover.release(end);
    }
  } catch (error) {
    handover.stop();
    throw error;
  }
  return back;
};
