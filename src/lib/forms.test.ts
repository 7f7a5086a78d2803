import { describe, expect, it } from 'vitest';
import { loginSchema, registerSchema } from '#contract/auth.ts';
import { confirmationMismatch, serverFieldErrors, zodFieldErrors } from './forms.ts';

const t = (key: string, params?: Record<string, string | number>) => (params ? `${key}:${JSON.stringify(params)}` : key);

describe('zodFieldErrors', () => {
  it('keeps the first message per field, translated with its parameters', () => {
    const result = registerSchema.safeParse({ name: '', email: 'nope', password: 'short', password_confirmation: 'short', role: 'x' });
    expect(result.success).toBe(false);
    const errors = zodFieldErrors(result.error!.issues, ['name', 'email', 'password', 'password_confirmation', 'role'] as const, t);
    expect(errors).toEqual({
      name: 'validation.required',
      email: 'validation.email',
      password: 'validation.min_length:{"min":8}',
      role: 'validation.invalid_option',
    });
  });

  it('sends issues of fields the form does not show to `_`', () => {
    const result = loginSchema.safeParse({ email: 'a@b.co', password: '' });
    const errors = zodFieldErrors(result.error!.issues, ['email'] as const, t);
    expect(errors).toEqual({ _: 'validation.required' });
  });

  it('words a mismatched confirmation with validation.password_confirmation', () => {
    const result = registerSchema.safeParse({
      name: 'Ana',
      email: 'a@b.co',
      password: 'long enough 1',
      password_confirmation: 'other',
      role: 'model',
    });
    expect(zodFieldErrors(result.error!.issues, ['password_confirmation'] as const, t)).toEqual({
      password_confirmation: 'validation.password_confirmation',
    });
  });
});

describe('serverFieldErrors', () => {
  it('maps the 422 errors onto the fields and the rest to `_`', () => {
    const errors = serverFieldErrors(
      {
        channel: 'notification',
        type: 'error',
        message: 'Revisa los datos.',
        errors: { email: ['Malo.', 'Muy malo.'], token: ['Caducado.'] },
      },
      ['email', 'password'] as const,
    );
    expect(errors).toEqual({ email: 'Malo. Muy malo.', _: 'Caducado.' });
  });

  it('falls back to the message when there are no field errors', () => {
    expect(serverFieldErrors({ channel: 'notification', type: 'error', message: 'Revisa los datos.' }, ['email'] as const)).toEqual({
      _: 'Revisa los datos.',
    });
  });
});

describe('confirmationMismatch', () => {
  it('says nothing until a confirmation is typed, then whether it differs', () => {
    expect(confirmationMismatch({ password: 'abc', password_confirmation: '' }, t)).toEqual({});
    expect(confirmationMismatch({ password: 'abc', password_confirmation: 'abc' }, t)).toEqual({});
    expect(confirmationMismatch({ password: 'abc', password_confirmation: 'abd' }, t)).toEqual({
      password_confirmation: 'validation.password_confirmation',
    });
  });
});
