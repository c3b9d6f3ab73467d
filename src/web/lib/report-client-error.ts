import { CLIENT_ERROR_LIMITS, type ClientErrorKind } from '../../shared/api/client-errors';

/** A page stuck in an error loop reports a few times, not thousands. */
const MAX_REPORTS_PER_PAGE = 10;
let reports = 0;
const seen = new Set<string>();

const describe = (error: unknown): { message: string; stack?: string } => {
  if (error instanceof Error)
    return {
      message: `${error.name}: ${error.message}`,
      stack: error.stack?.slice(0, CLIENT_ERROR_LIMITS.stack),
    };
  return { message: String(error ?? 'Unknown error') };
};

/**
 * Tells the server that something failed in this page (POST /api/client-errors): the kind, the error's own
 * text and stack, and the page's path — never the query (tokens), the audio or who is signed in (no
 * credentials are sent). Best effort: a report that cannot be sent is dropped.
 */
export function reportClientError(kind: ClientErrorKind, error: unknown): void {
  const { message, stack } = describe(error);
  const text = message.trim().slice(0, CLIENT_ERROR_LIMITS.message) || 'Unknown error';
  const key = `${kind}\n${text}`;
  if (seen.has(key) || reports >= MAX_REPORTS_PER_PAGE) return;
  seen.add(key);
  reports++;
  const report = { kind, message: text, route: window.location.pathname.slice(0, CLIENT_ERROR_LIMITS.route) };
  let body = JSON.stringify({ ...report, stack });
  // Stacks with non-ASCII text can pass the character cap and still exceed the byte cap: drop the stack.
  if (new Blob([body]).size > CLIENT_ERROR_LIMITS.bodyBytes) body = JSON.stringify(report);
  // keepalive: the report still goes out when the page reloads right after (a missing chunk).
  fetch('/api/client-errors', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    credentials: 'omit',
    keepalive: true,
  }).catch(() => {});
}

/** Uncaught errors and unhandled promise rejections of the page. */
export function reportUncaughtErrors(): void {
  window.addEventListener('error', (event) => reportClientError('page-error', event.error ?? event.message));
  window.addEventListener('unhandledrejection', (event) =>
    reportClientError('unhandled-rejection', event.reason),
  );
}
