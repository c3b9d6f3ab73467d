/**
 * What the beat grid draws at a lane's width (decision 292): lines closer than MIN_GAP_PX are noise (a
 * 10-minute song at fit zoom has a beat every 0.8 px), so beats are shown only where they stand that far
 * apart, and bars every 2nd, 4th, ... bar where even bars are too close. The lane is cut into tiles of at
 * most TILE_PX (a canvas has a size limit, and a phone zoomed 64x on a long song would hold hundreds of MB
 * of pixels): each tile draws only its stretch of time, and only while it is on screen.
 */
import type { GridLine } from '../../../../audio';

export const MIN_GAP_PX = 6;
export const TILE_PX = 4096;

/** The lines worth drawing at `pxPerSecond`: beats if they stand MIN_GAP_PX apart, else every 2^k-th bar. */
export const linesToDraw = (lines: readonly GridLine[], pxPerSecond: number): GridLine[] => {
  const bars = lines.filter((l) => l.bar);
  if (lines.length < 2 || !(pxPerSecond > 0)) return [...lines];
  const beatPx = Math.abs(lines[1]!.seconds - lines[0]!.seconds) * pxPerSecond;
  if (beatPx >= MIN_GAP_PX) return [...lines];
  if (bars.length < 2) return bars;
  const barPx = (bars[1]!.seconds - bars[0]!.seconds) * pxPerSecond;
  let every = 1;
  while (barPx * every < MIN_GAP_PX) every *= 2;
  // Counted from bar 1 (the first downbeat), so the bar lines kept are 1, 1 + every, ...
  return bars.filter((l) => (((l.barNumber - 1) % every) + every) % every === 0);
};

/** How many tiles a lane `widthPx` wide is cut into. */
export const tileCount = (widthPx: number): number => Math.max(1, Math.ceil(widthPx / TILE_PX));

/**
 * Draws the lines of one tile (seconds `from`..`to` across `width` device pixels): one device pixel wide
 * (whole pixels, so a line is crisp), bars stronger than beats.
 */
export const drawGridTile = (
  g: CanvasRenderingContext2D,
  lines: readonly GridLine[],
  tile: { from: number; to: number; width: number; height: number; linePx: number },
): void => {
  g.clearRect(0, 0, tile.width, tile.height);
  const perSecond = tile.width / (tile.to - tile.from);
  for (const bar of [false, true]) {
    // Tailwind's zinc-400 at 45 % for bars, zinc-600 at 25 % for beats (the grid's colours before).
    g.fillStyle = bar ? 'rgba(161, 161, 170, 0.45)' : 'rgba(82, 82, 91, 0.25)';
    for (const line of lines) {
      if (line.bar !== bar || line.seconds < tile.from || line.seconds >= tile.to) continue;
      g.fillRect(Math.floor((line.seconds - tile.from) * perSecond), 0, tile.linePx, tile.height);
    }
  }
};
