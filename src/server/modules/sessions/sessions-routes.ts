import type { FastifyInstance } from 'fastify';
import { listSessionsQuery, sessionBody, sessionIdParam } from '../../../shared/api/sessions';
import { requireUser } from '../../http/auth-context';
import { parse } from '../../http/validate';
import type { SessionsService } from './sessions-service';

export async function sessionsRoutes(app: FastifyInstance, sessions: SessionsService) {
  app.get('/api/sessions', async (req) => {
    const user = requireUser(req);
    return sessions.list(user.id, parse(listSessionsQuery, req.query));
  });

  app.get('/api/sessions/:id', async (req) => {
    const user = requireUser(req);
    const { id } = parse(sessionIdParam, req.params);
    return sessions.get(user.id, id);
  });

  app.post('/api/sessions', async (req, reply) => {
    const user = requireUser(req);
    const body = parse(sessionBody, req.body);
    return reply.code(201).send(await sessions.create(user.id, body));
  });

  app.put('/api/sessions/:id', async (req) => {
    const user = requireUser(req);
    const { id } = parse(sessionIdParam, req.params);
    return sessions.update(user.id, id, parse(sessionBody, req.body));
  });

  app.delete('/api/sessions/:id', async (req, reply) => {
    const user = requireUser(req);
    const { id } = parse(sessionIdParam, req.params);
    await sessions.remove(user.id, id);
    return reply.code(204).send();
  });
}
