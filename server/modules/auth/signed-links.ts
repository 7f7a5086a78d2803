/**
 * Signed e-mail verification links, Laravel style: /verify-email/{id}/{sha1(email)}?expires=…&signature=…,
 * the signature an HMAC-SHA256 of id, hash and expiry with APP_KEY. Valid for 60 minutes.
 */
import crypto from 'node:crypto';

export const VERIFY_LINK_TTL_MS = 60 * 60 * 1000;

export const emailHash = (email: string) => crypto.createHash('sha1').update(email.toLowerCase()).digest('hex');

function sign(key: string, id: number, hash: string, expires: number): string {
  return crypto.createHmac('sha256', key).update(`verify-email|${id}|${hash}|${expires}`).digest('hex');
}

export function verificationLink(appUrl: string, lang: string, key: string, user: { id: number; email: string }, now = Date.now()): string {
  const hash = emailHash(user.email);
  const expires = Math.floor((now + VERIFY_LINK_TTL_MS) / 1000);
  const signature = sign(key, user.id, hash, expires);
  return `${appUrl}/${lang}/verify-email/${user.id}/${hash}?expires=${expires}&signature=${signature}`;
}

export type LinkCheck = 'ok' | 'invalid_signature' | 'link_expired';

export function checkVerificationLink(
  key: string,
  p: { id: number; hash: string; expires: number; signature: string },
  now = Date.now(),
): LinkCheck {
  const expected = Buffer.from(sign(key, p.id, p.hash, p.expires));
  const given = Buffer.from(p.signature);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return 'invalid_signature';
  if (p.expires * 1000 < now) return 'link_expired';
  return 'ok';
}
