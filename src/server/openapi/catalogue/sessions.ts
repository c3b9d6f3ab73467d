import { z } from 'zod';
import { listSessionsQuery, sessionBody, sessionIdParam, sessionView } from '../../../shared/api/sessions';
import type { Operation } from '../operation';

/** The mixer's saved sessions. */
const EXAMPLE_SESSION: z.input<typeof sessionBody> = {
  name: 'Chorus take 3',
  vocalTrackId: 12,
  instrumentalTrackId: 13,
  vocalDuration: 180,
  instrumentalDuration: 182.5,
  clips: {
    vocals: [{ id: 'v1', trackType: 'vocals', startTime: 0, endTime: 30, position: 4, selected: false }],
    instrumental: [],
  },
  style: 'balanced',
  outputVolume: 80,
  genre: 'hiphop',
  vocalChain: { deEsser: 0.5, space: 0 },
};

const sessionList = z.object({
  sessions: z.array(
    sessionView.pick({
      id: true,
      name: true,
      vocalTrackId: true,
      instrumentalTrackId: true,
      style: true,
      createdAt: true,
      updatedAt: true,
    }),
  ),
  nextCursor: z.number().int().nullable(),
});
export const SESSIONS_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/api/sessions',
    tag: 'sessions',
    summary: "The user's saved mixer sessions, newest first",
    access: 'user',
    query: listSessionsQuery,
    status: 200,
    response: sessionList,
  },
  {
    method: 'get',
    path: '/api/sessions/:id',
    tag: 'sessions',
    summary: 'One saved mixer session with its clips',
    access: 'user',
    params: sessionIdParam,
    status: 200,
    response: sessionView,
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/sessions',
    tag: 'sessions',
    summary: 'Save a mixer arrangement',
    access: 'user',
    body: sessionBody,
    status: 201,
    response: sessionView,
    example: { request: EXAMPLE_SESSION },
  },
  {
    method: 'put',
    path: '/api/sessions/:id',
    tag: 'sessions',
    summary: 'Replace a saved mixer arrangement',
    access: 'user',
    params: sessionIdParam,
    body: sessionBody,
    status: 200,
    response: sessionView,
    example: { request: EXAMPLE_SESSION },
    errors: [404],
  },
  {
    method: 'delete',
    path: '/api/sessions/:id',
    tag: 'sessions',
    summary: 'Delete a saved mixer session',
    access: 'user',
    params: sessionIdParam,
    status: 204,
    errors: [404],
  },
];
