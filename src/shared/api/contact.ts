import { z } from 'zod';
import { MESSAGES } from '../messages';

const required = (max: number) =>
  z
    .string({ error: MESSAGES.contactMissing })
    .trim()
    .min(1, MESSAGES.contactMissing)
    .max(max, `Please keep this under ${max} characters`);

export const contactBody = z.object({
  name: required(100),
  email: required(254).pipe(z.email({ error: MESSAGES.invalidEmail })),
  subject: required(200),
  message: required(5000),
});
export type ContactBody = z.infer<typeof contactBody>;
