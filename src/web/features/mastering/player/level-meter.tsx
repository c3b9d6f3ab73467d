import { useEffect, useRef } from 'react';
import { cn } from '../../../lib/cn';
import { isMutedAt, meterTone } from '../mastering-rules';
import { TEXT } from '../mastering-texts';
import type { MasteringPlayer } from './mastering-player';

const TONE_CLASS = {
  low: 'bg-emerald-500',
  mid: 'bg-yellow-400',
  high: 'bg-orange-500',
  clip: 'bg-red-500',
} as const;

/**
 * Spec 9: the meter reads the playing signal every 100 ms; its colour changes at 50, 75 and 90%. The reading
 * is taken on a 100 ms interval and drawn in requestAnimationFrame through refs. The preview mute is shown
 * from the same loop ('Currently muted').
 */
export function LevelMeter({ player, showMute }: { player: MasteringPlayer; showMute: boolean }) {
  const bar = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const muted = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    let percent = 0;
    let isMuted = false;
    const read = () => {
      const level = player.readLevel();
      percent = level ? Math.min(100, Math.round(level.peak * 100)) : 0;
      isMuted = showMute && player.playing === 'mastered' && isMutedAt(player.position());
    };
    read();
    const timer = setInterval(read, 100);
    let frame = 0;
    const draw = () => {
      const tone = meterTone(percent);
      if (bar.current) {
        bar.current.style.width = `${percent}%`;
        bar.current.className = cn('h-full transition-[width] duration-75', TONE_CLASS[tone]);
      }
      if (box.current) {
        box.current.dataset.level = String(percent);
        box.current.setAttribute('aria-valuenow', String(percent));
        box.current.dataset.tone = tone;
      }
      if (muted.current) muted.current.hidden = !isMuted;
      frame = requestAnimationFrame(draw);
    };
    draw();
    return () => {
      clearInterval(timer);
      cancelAnimationFrame(frame);
    };
  }, [player, showMute]);

  return (
    <div className="grid gap-1">
      {/* biome-ignore lint/a11y/useSemanticElements: a styled bar whose colour bands are drawn per frame through a ref */}
      <div
        ref={box}
        role="meter"
        aria-label="Level"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={0}
        data-testid="level-meter"
        className="h-3 w-full overflow-hidden rounded bg-zinc-800"
      >
        <div ref={bar} className="h-full bg-emerald-500" style={{ width: '0%' }} />
      </div>
      <p ref={muted} hidden className="text-sm font-medium text-amber-300" data-testid="muted-indicator">
        {TEXT.currentlyMuted}
      </p>
    </div>
  );
}
