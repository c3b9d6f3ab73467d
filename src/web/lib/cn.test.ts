import { describe, expect, it } from 'vitest';
import { buttonClasses } from '../components/ui/button';
import { cn } from './cn';

describe('cn', () => {
  it("lets a caller's class override the component's conflicting one (px-0 beats px-3)", () => {
    const classes = buttonClasses('link', 'sm', 'px-0').split(' ');
    expect(classes).toContain('px-0');
    expect(classes).not.toContain('px-3');
  });

  it('keeps classes that do not conflict and skips falsy parts', () => {
    expect(cn('h-8 px-3', false, null, undefined, 'text-sm')).toBe('h-8 px-3 text-sm');
    expect(cn('p-2', 'px-0')).toBe('p-2 px-0');
    expect(cn('text-sm text-red-600', 'text-lg')).toBe('text-red-600 text-lg');
  });
});
