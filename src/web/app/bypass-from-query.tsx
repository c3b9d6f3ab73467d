import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { apiRequest } from '../lib/api-client';
import { setBypassFlag, withoutBypassParam } from './dev-bypass';
import { useConfig } from './use-config';

/**
 * Spec 4: `?bypass=<secret>` turns the developer bypass on. The server checks the secret
 * (POST /api/dev/bypass answers 404 unless developer mode is on and the secret matches); the query is then
 * taken out of the address so the secret does not linger in history. With developer mode off it does nothing.
 */
export function BypassFromQuery() {
  const { devMode } = useConfig();
  const location = useLocation();
  const navigate = useNavigate();
  const checking = useRef<string | null>(null);
  const secret = new URLSearchParams(location.search).get('bypass');

  useEffect(() => {
    if (!devMode || !secret || checking.current === secret) return;
    checking.current = secret;
    const clean = `${location.pathname}${withoutBypassParam(location.search)}${location.hash}`;
    apiRequest('POST', '/api/dev/bypass', { secret })
      .then(() => setBypassFlag())
      .catch(() => {
        // A wrong secret simply leaves the flag off.
      })
      .finally(() => {
        checking.current = null;
        navigate(clean, { replace: true });
      });
  }, [devMode, secret, location.pathname, location.search, location.hash, navigate]);

  return null;
}
