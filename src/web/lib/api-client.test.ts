import { describe, expect, it } from 'vitest';
import { ApiError, errorDetail, readBody, requestHeaders, throwIfNotOk, userMessage } from './api-client';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('errorDetail', () => {
  it('prefers the JSON message, then the body text, then the status text', () => {
    expect(errorDetail('{"message":"Nope","code":"nope"}', 'Bad Request')).toEqual({
      detail: 'Nope',
      code: 'nope',
    });
    expect(errorDetail('{"message":"Nope"}', 'Bad Request')).toEqual({ detail: 'Nope', code: undefined });
    expect(errorDetail('{"other":1}', 'Bad Request')).toEqual({ detail: '{"other":1}' });
    expect(errorDetail('just text', 'Bad Request')).toEqual({ detail: 'just text' });
    expect(errorDetail('', 'Service Unavailable')).toEqual({ detail: 'Service Unavailable' });
  });
});

describe('requestHeaders', () => {
  it('adds JSON content type only with a body and the token only when stored', () => {
    expect(requestHeaders(false, null)).toEqual({});
    expect(requestHeaders(true, 'tok')).toEqual({
      'Content-Type': 'application/json',
      'x-auth-token': 'tok',
    });
  });
});

describe('responses (spec 7 and 8)', () => {
  it('passes OK responses and parses JSON; other bodies come back raw', async () => {
    await expect(throwIfNotOk(json(200, { ok: true }))).resolves.toBeUndefined();
    expect(await readBody(json(200, { ok: true }))).toEqual({ ok: true });
    const raw = await readBody(new Response('plain', { headers: { 'content-type': 'text/plain' } }));
    expect(raw).toBeInstanceOf(Response);
  });

  it('turns failures into "status: message" errors', async () => {
    await expect(
      throwIfNotOk(json(409, { message: 'An account with this email already exists' })),
    ).rejects.toMatchObject({
      status: 409,
      message: '409: An account with this email already exists',
      detail: 'An account with this email already exists',
    });
    await expect(throwIfNotOk(new Response('upstream broke', { status: 500 }))).rejects.toThrow(
      '500: upstream broke',
    );
    await expect(
      throwIfNotOk(new Response(null, { status: 503, statusText: 'Service Unavailable' })),
    ).rejects.toThrow('503: Service Unavailable');
  });

  it('userMessage shows the server words without the status prefix', () => {
    expect(
      userMessage(new ApiError(401, '401: Invalid email or password', 'Invalid email or password'), 'x'),
    ).toBe('Invalid email or password');
    expect(userMessage(new Error('boom'), 'fallback')).toBe('boom');
    expect(userMessage(undefined, 'fallback')).toBe('fallback');
  });
});
