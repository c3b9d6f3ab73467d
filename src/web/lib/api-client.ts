import { AUTH_TOKEN_KEY, readStorage } from './storage';

/**
 * The one way the browser talks to the API (spec section 7): credentials always included, the stored
 * authToken in `x-auth-token`, JSON bodies, and every non-OK response turned into an ApiError whose
 * message is `${status}: ${server message ?? body text ?? status text}`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The server's own words, without the status prefix, for showing to people. */
    readonly detail: string,
    /** The server's machine-readable reason, when it gave one (e.g. 'two_factor_required'). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Builds the spec's error text from what a failed response carried. Pure, so it is unit-tested. */
export const errorDetail = (bodyText: string, statusText: string): { detail: string; code?: string } => {
  if (bodyText) {
    try {
      const parsed: unknown = JSON.parse(bodyText);
      if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
        const code = 'code' in parsed && typeof parsed.code === 'string' ? parsed.code : undefined;
        return { detail: parsed.message, code };
      }
    } catch {
      // Not JSON: the raw text is the message.
    }
    return { detail: bodyText };
  }
  return { detail: statusText };
};

export const throwIfNotOk = async (res: Response): Promise<void> => {
  if (res.ok) return;
  const text = await res.text().catch(() => '');
  const { detail, code } = errorDetail(text, res.statusText);
  throw new ApiError(res.status, `${res.status}: ${detail}`, detail, code);
};

export const requestHeaders = (hasBody: boolean, token: string | null): Record<string, string> => {
  const headers: Record<string, string> = {};
  if (hasBody) headers['Content-Type'] = 'application/json';
  if (token) headers['x-auth-token'] = token;
  return headers;
};

/** Sends a request and returns the OK response (throws ApiError otherwise). */
export const apiRequest = async (method: string, url: string, body?: unknown): Promise<Response> => {
  const hasBody = body !== undefined;
  const res = await fetch(url, {
    method,
    credentials: 'include',
    headers: requestHeaders(hasBody, readStorage(AUTH_TOKEN_KEY)),
    body: hasBody ? JSON.stringify(body) : undefined,
  });
  await throwIfNotOk(res);
  return res;
};

/** A JSON response is parsed; anything else is returned as the raw Response (spec 7). */
export const readBody = async (res: Response): Promise<unknown> => {
  const type = res.headers.get('content-type') ?? '';
  return type.includes('application/json') ? res.json() : res;
};

export const apiJson = async <T>(method: string, url: string, body?: unknown): Promise<T> =>
  (await readBody(await apiRequest(method, url, body))) as T;

/** The message to show a person: the server's words when it gave any, else the error's own message. */
export const userMessage = (error: unknown, fallback: string): string => {
  if (error instanceof ApiError) return error.detail || fallback;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
};

/** The server's error code of a failed call, if any. */
export const errorCode = (error: unknown): string | undefined =>
  error instanceof ApiError ? error.code : undefined;
