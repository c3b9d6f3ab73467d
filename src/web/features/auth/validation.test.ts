import { describe, expect, it } from 'vitest';
import { checkForgotEmail, checkLogin, checkRegister, checkResetPassword } from './validation';

describe('auth form checks (spec 5)', () => {
  it('login needs both fields', () => {
    const missing = { title: 'Missing information', description: 'Please enter both email and password' };
    expect(checkLogin({ email: '', password: 'x' })).toEqual(missing);
    expect(checkLogin({ email: 'a@b.co', password: '' })).toEqual(missing);
    expect(checkLogin({ email: '  ', password: 'secret' })).toEqual(missing);
    expect(checkLogin({ email: 'a@b.co', password: 'secret' })).toBeNull();
  });

  it('register needs every field, then matching passwords', () => {
    expect(checkRegister({ email: '', password: 'abcdef', confirm: 'abcdef' })?.description).toBe(
      'Please fill out all fields',
    );
    expect(checkRegister({ email: 'a@b.co', password: 'abcdef', confirm: '' })?.description).toBe(
      'Please fill out all fields',
    );
    expect(checkRegister({ email: 'a@b.co', password: 'abcdef', confirm: 'abcdeg' })).toEqual({
      title: "Passwords don't match",
      description: 'Please ensure both passwords match',
    });
    expect(checkRegister({ email: 'a@b.co', password: 'abc', confirm: 'abc' })?.description).toBe(
      'Password must be at least 6 characters long',
    );
    expect(checkRegister({ email: 'not-an-email', password: 'abcdef', confirm: 'abcdef' })?.description).toBe(
      'Please enter a valid email address',
    );
    expect(checkRegister({ email: 'a@b.co', password: 'abcdef', confirm: 'abcdef' })).toBeNull();
  });

  it('forgot password needs a valid address', () => {
    expect(checkForgotEmail('')).toBe('Please enter a valid email address');
    expect(checkForgotEmail('nope@')).toBe('Please enter a valid email address');
    expect(checkForgotEmail('someone@example.test')).toBeNull();
  });

  it('reset password: length on the password, mismatch on the confirmation', () => {
    expect(checkResetPassword({ password: 'abc', confirm: 'abc' })).toEqual({
      password: 'Password must be at least 6 characters long',
    });
    expect(checkResetPassword({ password: 'abcdef', confirm: 'abcdeg' })).toEqual({
      confirm: "Passwords don't match",
    });
    expect(checkResetPassword({ password: 'abcdef', confirm: 'abcdef' })).toEqual({});
  });
});
