/**
 * Sign-in throttling with known devices (OWASP "Slow down online guessing attacks with device cookies"). An
 * account or IP that collected too many failures is locked for a bounded time, but a browser that has signed
 * in to that account before carries a signed cookie naming it, and passes those locks: whoever guesses from
 * elsewhere can keep the account locked for strangers, never for its owner. Limits: auth.limits.ts.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { countFailure, consume, lockedFor, tooManyAttempts } from './auth.limits.ts';

export const KNOWN_DEVICE_COOKIE = 'vitrina_device';
const KNOWN_DEVICE_DAYS = 180;
/** Accounts one browser remembers (shared family or agency computers). */
const KNOWN_DEVICE_ACCOUNTS = 5;

interface DeviceEntry {
  nonce: string;
  issued: number;
  mac: string;
}

const normalise = (email: string) => email.trim().toLowerCase();

/**
 * The client an IP limit counts: an IPv4 address, or the /64 of an IPv6 one (a single subscriber usually holds a
 * whole /64 and could otherwise take a fresh address for every guess).
 */
export function clientNetwork(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (v4) return v4[1]!;
  if (!net.isIPv6(ip)) return ip;
  const groups = (part: string) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const [head = '', tail] = ip.toLowerCase().split('::');
  const full =
    tail === undefined
      ? groups(head)
      : [...groups(head), ...Array<string>(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
  return `${full
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** The key of the per e-mail + IP limit, shared by sign-in and password reset. */
export const emailClientKey = (email: string, ip: string) => `${normalise(email)}|${clientNetwork(ip)}`;

function deviceMac(appKey: string, email: string, nonce: string, issued: number): string {
  return crypto.createHmac('sha256', appKey).update(`known-device\n${email}\n${nonce}\n${issued}`).digest('base64url');
}

/** The cookie's entries that are well formed and not too old; what they vouch for is checked by the MAC. */
function readEntries(req: FastifyRequest): DeviceEntry[] {
  const raw = req.cookies[KNOWN_DEVICE_COOKIE];
  if (!raw || raw.length > 1024) return [];
  const oldest = Math.floor(Date.now() / 1000) - KNOWN_DEVICE_DAYS * 86400;
  return raw
    .split('~')
    .slice(0, KNOWN_DEVICE_ACCOUNTS)
    .map((part) => {
      const [nonce, issued, mac] = part.split('.');
      return { nonce: nonce ?? '', issued: Number.parseInt(issued ?? '', 36), mac: mac ?? '' };
    })
    .filter((e) => /^[\w-]{16,32}$/.test(e.nonce) && Number.isSafeInteger(e.issued) && e.issued >= oldest && e.mac.length === 43);
}

/** The entry of this browser's cookie that vouches for `email`, if any. */
function knownDeviceFor(req: FastifyRequest, email: string): DeviceEntry | undefined {
  const appKey = req.server.config.appKey;
  return readEntries(req).find((e) => crypto.timingSafeEqual(Buffer.from(deviceMac(appKey, email, e.nonce, e.issued)), Buffer.from(e.mac)));
}

/** Marks this browser as one that proved it may sign in to `email` (a correct password or a reset link). */
export function rememberDevice(req: FastifyRequest, reply: FastifyReply, rawEmail: string): void {
  const email = normalise(rawEmail);
  const appKey = req.server.config.appKey;
  const current = knownDeviceFor(req, email);
  const others = readEntries(req).filter((e) => e.mac !== current?.mac);
  const nonce = crypto.randomBytes(16).toString('base64url');
  const issued = Math.floor(Date.now() / 1000);
  const entry = `${nonce}.${issued.toString(36)}.${deviceMac(appKey, email, nonce, issued)}`;
  const kept = others.slice(0, KNOWN_DEVICE_ACCOUNTS - 1).map((e) => `${e.nonce}.${e.issued.toString(36)}.${e.mac}`);
  reply.setCookie(KNOWN_DEVICE_COOKIE, [entry, ...kept].join('~'), {
    path: '/api',
    httpOnly: true,
    sameSite: 'lax',
    secure: req.server.config.secureCookies,
    maxAge: KNOWN_DEVICE_DAYS * 86400,
  });
}

export interface LoginAttempt {
  /** A wrong password (or an unknown e-mail): counts against the account, the IP or the known device. */
  failed(): Promise<void>;
  /** The right password: resets the e-mail + IP counter and remembers this browser for the account. */
  succeeded(): Promise<void>;
}

/**
 * Call before checking the password: answers 429 (Retry-After, minutes in the message) when this e-mail and IP
 * tried too often in the last minute, or when the account or the IP is locked and this browser is not a known
 * device of the account. Unknown e-mails are counted like real ones, so the answers tell nothing apart.
 */
export async function beginLogin(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, rawEmail: string): Promise<LoginAttempt> {
  const limits = app.authLimits;
  const { lockSeconds } = limits.loginOptions;
  const email = normalise(rawEmail);
  const client = clientNetwork(req.ip);
  const emailIpKey = emailClientKey(email, req.ip);
  await consume(limits.login, emailIpKey, reply);

  const device = knownDeviceFor(req, email);
  const trusted = device && !(await lockedFor(limits.loginFailuresPerDevice, device.nonce)) ? device : undefined;
  if (!trusted) {
    const wait = Math.max(await lockedFor(limits.loginFailuresPerAccount, email), await lockedFor(limits.loginFailuresPerIp, client));
    if (wait > 0) throw tooManyAttempts(reply, wait);
  }

  return {
    async failed() {
      // A known device's mistakes are its owner's typos: they lock that cookie, not the account or the IP.
      if (trusted) return countFailure(limits.loginFailuresPerDevice, trusted.nonce, lockSeconds);
      await countFailure(limits.loginFailuresPerAccount, email, lockSeconds);
      await countFailure(limits.loginFailuresPerIp, client, lockSeconds);
    },
    async succeeded() {
      await limits.login.delete(emailIpKey);
      rememberDevice(req, reply, email);
    },
  };
}

/**
 * After a password reset: the mailbox owner chose a new password, so the guesses counted against the old one no
 * longer matter, and this browser is a known device from now on.
 */
export async function afterPasswordReset(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, rawEmail: string): Promise<void> {
  const email = normalise(rawEmail);
  await app.authLimits.loginFailuresPerAccount.delete(email);
  await app.authLimits.login.delete(emailClientKey(email, req.ip));
  rememberDevice(req, reply, email);
}
