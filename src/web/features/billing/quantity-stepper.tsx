import { useId } from 'react';
import { CROWN_PURCHASE } from '../../../shared/plans';
import { Button } from '../../components/ui/button';
import { Input, Label } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { canDecrease, canIncrease, clampQuantity, parseQuantity } from './crown-quantity';

export function QuantityStepper({ value, onChange }: { value: number; onChange: (q: number) => void }) {
  const id = useId();
  return (
    <div className="grid gap-3">
      <Label htmlFor={id}>Number of crowns</Label>
      <div className="flex items-center gap-2">
        <Button
          variant="outline"
          size="icon"
          aria-label="Decrease quantity"
          disabled={!canDecrease(value)}
          onClick={() => onChange(clampQuantity(value - 1))}
        >
          −
        </Button>
        <Input
          id={id}
          inputMode="numeric"
          className="w-24 max-w-24 text-center text-lg font-semibold"
          value={String(value)}
          onChange={(e) => onChange(parseQuantity(e.target.value))}
        />
        <Button
          variant="outline"
          size="icon"
          aria-label="Increase quantity"
          disabled={!canIncrease(value)}
          onClick={() => onChange(clampQuantity(value + 1))}
        >
          +
        </Button>
      </div>
      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">Quick picks</legend>
        {CROWN_PURCHASE.quickPicks.map((pick) => (
          <Button
            key={pick}
            size="sm"
            variant="outline"
            aria-pressed={value === pick}
            className={cn(value === pick && 'border-amber-400 bg-amber-500/15 text-amber-100')}
            onClick={() => onChange(pick)}
          >
            {pick}
          </Button>
        ))}
      </fieldset>
      <p className="text-xs text-zinc-400">Maximum 1000 crowns per purchase</p>
    </div>
  );
}
