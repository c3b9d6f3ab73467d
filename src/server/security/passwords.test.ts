import { describe, expect, it } from 'vitest';
import { createPasswordHasher, isCommonPassword, OWASP_SCRYPT } from './passwords';

describe('passwords', () => {
  it('hashes with the OWASP scrypt parameters by default and verifies', async () => {
    const hasher = createPasswordHasher();
    const stored = await hasher.hash('correct horse battery');
    expect(stored.startsWith(`scrypt$${OWASP_SCRYPT.N}$8$1$`)).toBe(true);
    expect(OWASP_SCRYPT.N).toBe(131072);
    expect(await hasher.verify('correct horse battery', stored)).toBe(true);
    expect(await hasher.verify('correct horse batterY', stored)).toBe(false);
  });

  it('salts every hash and verifies hashes made with other parameters', async () => {
    const cheap = createPasswordHasher({ N: 1024, r: 8, p: 1 });
    const a = await cheap.hash('same password');
    const b = await cheap.hash('same password');
    expect(a).not.toBe(b);
    expect(await createPasswordHasher().verify('same password', a)).toBe(true);
    expect(await cheap.verify('same password', 'bcrypt$whatever')).toBe(false);
  });

  it('knows the most common passwords, whatever their case', () => {
    expect(isCommonPassword('Password123')).toBe(true);
    expect(isCommonPassword('qwerty')).toBe(true);
    expect(isCommonPassword('violet tambourine')).toBe(false);
  });
});
