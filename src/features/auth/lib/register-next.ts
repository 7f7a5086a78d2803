/**
 * `?next=` across a registration: registering does not sign in, the e-mail's link does, often in another tab (the mail
 * app opens it). The target is kept on this device (localStorage, one entry, for a day) when the form is sent, and
 * taken once by the verification page, which then leads there instead of the dashboard, as the login page does.
 * Only what `safeNext` accepts is kept or followed: a path of this site, never another host (no open redirect).
 * A link opened on another device finds nothing here and goes to the usual destination.
 */
import { safeNext } from '#src/lib/paths.ts';

export const REGISTER_NEXT_KEY = 'vitrina-register-next';
/** Longer than the verification link lives (its server-side expiry), so a link opened late still finds it. */
export const REGISTER_NEXT_TTL_MS = 24 * 60 * 60 * 1000;

interface Kept {
  next: string;
  at: number;
}

/** Keeps `next` for the verification of the account being registered (nothing, and forgets an older one, if unsafe). */
export function keepRegisterNext(next: string | null | undefined, now = Date.now()): void {
  const safe = safeNext(next);
  try {
    if (safe) localStorage.setItem(REGISTER_NEXT_KEY, JSON.stringify({ next: safe, at: now } satisfies Kept));
    else localStorage.removeItem(REGISTER_NEXT_KEY);
  } catch {
    // Storage refused (private mode): the verification leads to the usual destination.
  }
}

/** The kept target, once (it is forgotten), if still fresh and still a path of this site. */
export function takeRegisterNext(now = Date.now()): string | undefined {
  let kept: Partial<Kept> | null = null;
  try {
    kept = JSON.parse(localStorage.getItem(REGISTER_NEXT_KEY) ?? 'null') as Partial<Kept> | null;
    localStorage.removeItem(REGISTER_NEXT_KEY);
  } catch {
    return undefined;
  }
  if (!kept || typeof kept.next !== 'string' || typeof kept.at !== 'number' || now - kept.at > REGISTER_NEXT_TTL_MS) return undefined;
  return safeNext(kept.next);
}

/** `path` with `?next=` carried on (login ↔ register links), when there is a safe one. */
export function withNext(path: string, next: string | null | undefined): string {
  const safe = safeNext(next);
  return safe ? `${path}?next=${encodeURIComponent(safe)}` : path;
}
