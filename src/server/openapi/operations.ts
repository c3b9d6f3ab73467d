import { ADMIN_CONTACT_OPERATIONS } from './catalogue/admin-contact';
import { AUTH_OPERATIONS } from './catalogue/auth';
import { BILLING_OPERATIONS } from './catalogue/billing';
import { LIBRARY_OPERATIONS } from './catalogue/library';
import { SERVICE_OPERATIONS } from './catalogue/service';
import { SESSIONS_OPERATIONS } from './catalogue/sessions';
import { TRACKS_OPERATIONS } from './catalogue/tracks';

import type { Operation } from './operation';

export type { Access, Method, Operation } from './operation';

/**
 * The catalogue of the HTTP API that GET /api/openapi.json publishes. Bodies, queries and answers are the
 * shared zod schemas the routes parse with, so the document cannot drift from what the server accepts;
 * `openapi.test.ts` checks that every registered route is listed here and that every example validates.
 */
export const OPERATIONS: Operation[] = [
  ...SERVICE_OPERATIONS,
  ...AUTH_OPERATIONS,
  ...BILLING_OPERATIONS,
  ...TRACKS_OPERATIONS,
  ...SESSIONS_OPERATIONS,
  ...LIBRARY_OPERATIONS,
  ...ADMIN_CONTACT_OPERATIONS,
];
