import { z } from 'zod';
import { errorBody } from '../../shared/api/user';
import type { Operation } from './operations';

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of a shared zod schema, as a request or as an answer. */
const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  // Transforms (ids given as text or number) cannot be written as JSON Schema: their input side is kept.
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
  });
  return rest;
};

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input (the message names the field)',
  401: 'Not signed in',
  402: 'Payment or credits needed',
  403: 'Not allowed',
  404: 'Not found',
  408: 'Upload too slow',
  409: 'Conflicts with the current state',
  413: 'Too large',
  416: 'Range not satisfiable',
  429: 'Too many requests',
  503: 'Temporarily unavailable',
};

const SECURITY: Record<Operation['access'], Array<Record<string, string[]>> | undefined> = {
  public: undefined,
  user: [{ session: [] }, { authToken: [] }],
  admin: [{ session: [] }, { authToken: [] }],
  metrics: [{ metricsToken: [] }],
  // The Stripe-Signature header over the raw body: not a scheme OpenAPI can name.
  signature: [],
};

function parameters(op: Operation) {
  const list: object[] = [];
  for (const [where, schema] of [
    ['path', op.params],
    ['query', op.query],
  ] as const) {
    if (!schema) continue;
    const json = jsonSchema(schema, 'input') as { properties?: Record<string, object>; required?: string[] };
    for (const [name, prop] of Object.entries(json.properties ?? {}))
      list.push({
        name,
        in: where,
        required: where === 'path' || !!json.required?.includes(name),
        schema: prop,
      });
  }
  return list;
}

function operationObject(op: Operation) {
  const errors = new Set(op.errors);
  if (op.body || op.params || op.query) errors.add(400);
  if (op.access === 'user' || op.access === 'admin') errors.add(401);
  if (op.access === 'admin') errors.add(403);
  const responses: Record<string, object> = {
    [op.status]: {
      description: op.summary,
      ...(op.response
        ? {
            content: {
              'application/json': {
                schema: jsonSchema(op.response, 'output'),
                ...(op.example?.response !== undefined ? { example: op.example.response } : {}),
              },
            },
          }
        : op.responseType
          ? { content: { [op.responseType]: {} } }
          : {}),
    },
  };
  for (const status of [...errors].sort())
    responses[status] = {
      description: ERROR_TEXT[status] ?? 'Error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  const bodyType = op.bodyType ?? 'application/json';
  const requestBody =
    op.body || op.bodyType
      ? {
          required: true,
          content: {
            [bodyType]: {
              ...(op.body ? { schema: jsonSchema(op.body, 'input') } : {}),
              ...(op.example?.request !== undefined ? { example: op.example.request } : {}),
            },
          },
        }
      : undefined;
  const params = parameters(op);
  const security = SECURITY[op.access];
  return {
    tags: [op.tag],
    summary: op.summary,
    operationId: `${op.method}${openApiPath(op.path).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string) => (c ?? '').toUpperCase())}`,
    ...(params.length ? { parameters: params } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
    ...(security ? { security } : {}),
  };
}

/** The OpenAPI 3.1 document of the given operations. */
export function buildOpenApiDocument(operations: Operation[], info: { serverUrl: string }) {
  const paths: Record<string, Record<string, object>> = {};
  for (const op of operations) {
    const path = openApiPath(op.path);
    paths[path] ??= {};
    paths[path][op.method] = operationObject(op);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Master Your Mix API',
      // The API's own version: raised when a published route changes incompatibly.
      version: '1.0.0',
      description:
        'Every answer that is not OK carries `{message, code}`. State-changing requests from a browser must ' +
        "come from the app's own origin. Sign-in sets the `sid` cookie and returns `authToken` for the " +
        '`x-auth-token` header.',
    },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      schemas: { Error: jsonSchema(errorBody, 'output') },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'sid' },
        authToken: { type: 'apiKey', in: 'header', name: 'x-auth-token' },
        metricsToken: { type: 'http', scheme: 'bearer' },
      },
    },
  };
}
