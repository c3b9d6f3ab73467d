import type { z } from 'zod';

export type Method = 'get' | 'post' | 'put' | 'delete';
/** Who may call: anyone, a signed-in user, an admin, the metrics scraper, or the payment provider (signed body). */
export type Access = 'public' | 'user' | 'admin' | 'metrics' | 'signature';

export interface Operation {
  method: Method;
  /** Fastify's form (`/api/tracks/:id`); the document writes `{id}`. */
  path: string;
  tag: string;
  summary: string;
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** How the body travels when it is not JSON. */
  bodyType?: 'multipart/form-data' | 'application/x-www-form-urlencoded' | 'application/octet-stream';
  /** Success status and its JSON body (none for 204 and non-JSON answers). */
  status: number;
  response?: z.ZodType;
  /** Non-JSON success answers (audio bytes, HTML pages, Prometheus text). */
  responseType?: string;
  example?: { request?: unknown; response?: unknown };
  /** Error statuses worth naming besides 400 (validation) and 401/403 (access). */
  errors?: number[];
}
