import { z } from 'zod';
import {
  keepMasterFields,
  libraryItemParams,
  libraryList,
  libraryQuery,
  masterFileParams,
  renameBody,
} from '../../../shared/api/library';
import type { Operation } from '../operation';

/** The library of your work (issue 30). */
export const LIBRARY_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/api/library',
    tag: 'library',
    summary:
      "The user's uploads, mixes, saved sessions and paid masters, newest first; `q` finds words in names (and a master's preset, genre and reference)",
    access: 'user',
    query: libraryQuery,
    status: 200,
    response: libraryList,
  },
  {
    method: 'put',
    path: '/api/library/:kind/:id',
    tag: 'library',
    summary: 'Rename a track (upload or mix), a saved session or a master',
    access: 'user',
    params: libraryItemParams,
    body: renameBody,
    status: 204,
    example: { request: { name: 'Friday night take' } },
    errors: [404],
  },
  {
    method: 'delete',
    path: '/api/library/:kind/:id',
    tag: 'library',
    summary:
      'Delete a track, a saved session or a master with its stored files (409 for an upload a mix or session still uses)',
    access: 'user',
    params: libraryItemParams,
    status: 204,
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/masters',
    tag: 'library',
    summary:
      "Keep a paid master's downloaded files for 30 days: fields spendKey (the spend's idempotency key, of a mastering or an album spend) and meta (JSON), then the files in `file` parts (an album: its one ZIP); what was paid for is read from the ledger",
    access: 'user',
    body: keepMasterFields,
    bodyType: 'multipart/form-data',
    status: 201,
    response: z.object({ id: z.number() }),
    errors: [404, 409, 413],
  },
  {
    method: 'get',
    path: '/api/masters/:id/files/:index',
    tag: 'library',
    summary: 'One kept file of a paid master, while it is kept (never spends a credit or crown)',
    access: 'user',
    params: masterFileParams,
    status: 200,
    responseType: 'application/octet-stream',
    errors: [404, 410],
  },
];
