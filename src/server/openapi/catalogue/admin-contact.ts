import { adminStats } from '../../../shared/api/admin';
import { clientErrorReport } from '../../../shared/api/client-errors';
import { contactBody } from '../../../shared/api/contact';
import { messageResponse } from '../../../shared/api/user';
import type { Operation } from '../operation';

/** Admin and the contact form (spec 7). */
export const ADMIN_CONTACT_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/api/admin/stats',
    tag: 'admin',
    summary: 'Dashboard figures (admins with two-factor on)',
    access: 'admin',
    status: 200,
    response: adminStats,
    example: {
      response: {
        totalUsers: 120,
        newUsersToday: 3,
        newUsersThisWeek: 11,
        newUsersThisMonth: 40,
        subscribedUsers: 30,
        freeUsers: 90,
        recentRegistrations: [
          {
            id: 7,
            username: 'ada',
            email: 'ada@example.com',
            hasSubscription: true,
            createdAt: '2026-01-05T10:00:00.000Z',
          },
        ],
      },
    },
  },
  {
    method: 'post',
    path: '/api/client-errors',
    tag: 'service',
    summary: 'A browser error (uncaught, worker crash, decode failure): logged and counted, 8 KB at most',
    access: 'public',
    body: clientErrorReport,
    status: 204,
    example: {
      request: {
        kind: 'decode-failure',
        message: 'EncodingError: Unable to decode audio data',
        route: '/mastering',
      },
    },
    errors: [413, 429],
  },
  {
    method: 'post',
    path: '/api/contact',
    tag: 'contact',
    summary: 'Send a message to support',
    access: 'public',
    body: contactBody,
    status: 200,
    response: messageResponse,
    example: {
      request: { name: 'Ada', email: 'ada@example.com', subject: 'Mastering', message: 'How loud is Loud?' },
    },
    errors: [429],
  },
];
