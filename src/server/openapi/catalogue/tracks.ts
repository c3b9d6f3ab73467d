import { z } from 'zod';
import { listTracksQuery, trackIdParam, trackView, uploadTrackFields } from '../../../shared/api/tracks';
import type { Operation } from '../operation';

/** Uploaded and saved tracks (spec 7). */
const EXAMPLE_TRACK: z.input<typeof trackView> = {
  id: 12,
  name: 'Lead vocal',
  type: 'vocals',
  audioUrl: '/api/tracks/12/audio',
  arrangement: null,
  contentType: 'audio/wav',
  size: 10584044,
  duration: 0,
  createdAt: '2026-01-05T10:02:00.000Z',
};

const trackList = z.object({
  tracks: z.array(trackView),
  nextCursor: z.number().int().nullable(),
  usedBytes: z.number().int(),
  quotaBytes: z.number().int(),
});
export const TRACKS_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: '/api/tracks',
    tag: 'tracks',
    summary:
      'Upload a track: multipart fields type, name, duration and the file in `audio` (100 MB at most); a mixed track may carry its `arrangement` (JSON) so the mastering page can offer versions',
    access: 'user',
    body: uploadTrackFields,
    bodyType: 'multipart/form-data',
    status: 201,
    response: trackView,
    example: { request: { type: 'vocals', name: 'Lead vocal', duration: '0' }, response: EXAMPLE_TRACK },
    errors: [408, 413, 429],
  },
  {
    method: 'get',
    path: '/api/tracks',
    tag: 'tracks',
    summary: "The user's tracks, newest first, with the storage used and the quota",
    access: 'user',
    query: listTracksQuery,
    status: 200,
    response: trackList,
    example: {
      response: { tracks: [EXAMPLE_TRACK], nextCursor: null, usedBytes: 10584044, quotaBytes: 2147483648 },
    },
  },
  {
    method: 'get',
    path: '/api/tracks/:id',
    tag: 'tracks',
    summary: 'One track: name and audioUrl',
    access: 'user',
    params: trackIdParam,
    status: 200,
    response: trackView,
    example: { response: EXAMPLE_TRACK },
    errors: [404],
  },
  {
    method: 'delete',
    path: '/api/tracks/:id',
    tag: 'tracks',
    summary: 'Delete a track and its audio',
    access: 'user',
    params: trackIdParam,
    status: 204,
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/tracks/:id/audio',
    tag: 'tracks',
    summary: 'The audio bytes (Range and If-None-Match supported; never spends a credit)',
    access: 'user',
    params: trackIdParam,
    status: 200,
    responseType: 'audio/*',
    errors: [404, 416],
  },
];
