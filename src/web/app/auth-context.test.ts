import { QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../lib/query-client';
import { AuthProvider, useAuth } from './auth-context';

function ShowUser() {
  const { user, isLoading } = useAuth();
  return createElement('p', null, isLoading ? 'loading' : (user?.username ?? 'nobody'));
}

describe('useAuth', () => {
  it('throws outside its provider (spec 8)', () => {
    expect(() => renderToString(createElement(ShowUser))).toThrow(
      'useAuth must be used within an AuthProvider',
    );
  });

  it('works inside the provider', () => {
    const html = renderToString(
      createElement(
        QueryClientProvider,
        { client: createQueryClient() },
        createElement(AuthProvider, null, createElement(ShowUser)),
      ),
    );
    expect(html).toContain('loading');
  });
});

describe('query client defaults (spec 7)', () => {
  it('never retries, refetches on focus, polls or goes stale', () => {
    const q = createQueryClient().getDefaultOptions().queries;
    expect(q?.retry).toBe(false);
    expect(q?.refetchOnWindowFocus).toBe(false);
    expect(q?.refetchInterval).toBe(false);
    expect(q?.staleTime).toBe(Number.POSITIVE_INFINITY);
  });
});
