/** Password hashing (argon2id, OWASP parameters) and the refusal of the most common passwords. */
import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

const OPTIONS = {
  // Algorithm.Argon2id (a const enum, which isolatedModules cannot read).
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A real hash to verify against when the e-mail is unknown, so both paths take the same time. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  return (dummyHash ??= hashPassword('not-a-real-password-0000'));
}

// ~18,000 of the 49,000 most common passwords are long enough to pass the length rule: refuse them.
const COMMON = new Set(dictionary['passwords-common'].filter((p) => p.length >= 8).map((p) => p.toLowerCase()));

export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}
