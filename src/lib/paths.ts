/**
 * Language-prefixed paths. The server speaks language-neutral paths ("/login", "/model/dashboard"); the PWA
 * lives under `/{lng}/…`. Also the one place that decides whether a `?next=` target may be followed.
 */
import { useParams } from '#src/lib/router.tsx';
import { isLanguage, PRIMARY_LANGUAGE, type Language } from '#contract/languages.ts';

/** The language of the current route (`/:lng/…`), Spanish when there is none. */
export function useLng(): Language {
  const { lng } = useParams();
  return isLanguage(lng) ? lng : PRIMARY_LANGUAGE;
}

/** "/login" → "/es/login", "/" → "/es". Paths that already start with a language, and anything else, are kept. */
export function withLng(lng: Language, path: string): string {
  if (!path.startsWith('/') || path.startsWith('//')) return path;
  const first = path.slice(1).split(/[/?#]/)[0];
  if (isLanguage(first)) return path;
  if (path === '/') return `/${lng}`;
  return path.startsWith('/?') || path.startsWith('/#') ? `/${lng}${path.slice(1)}` : `/${lng}${path}`;
}

/** Screens a logged-in user is sent away from; following `next` to them would loop. */
const GUEST_ONLY = new Set(['login', 'register']);

/**
 * A `?next=` target is followed only when it is a path of this site: it starts with a single "/" (not "//" or
 * "/\", which browsers read as another host) and resolves to the same origin. Login and register are refused.
 */
export function safeNext(next: string | null | undefined): string | undefined {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return undefined;
  let url: URL;
  try {
    url = new URL(next, window.location.origin);
  } catch {
    return undefined;
  }
  if (url.origin !== window.location.origin) return undefined;
  const segments = url.pathname.split('/').filter(Boolean);
  const screen = isLanguage(segments[0]) ? segments[1] : segments[0];
  if (screen && GUEST_ONLY.has(screen)) return undefined;
  return url.pathname + url.search + url.hash;
}

/** `/{lng}/login?next=<path>`: where a logged-out visitor of `path` is sent. */
export function loginPath(lng: Language, next?: string): string {
  return next ? `/${lng}/login?next=${encodeURIComponent(next)}` : `/${lng}/login`;
}

/**
 * Named routes of SPEC §2 that take parameters, language-neutral like the dashboards (contract/roles.ts): the
 * path to link to, and the pattern the router registers under `/:lng`.
 */
export const NAMED_ROUTES = {
  /** Media/Photos of the signed-in model's ad, or of the ad `?ad={id}` (publicists, staff). */
  'upload.photos': { pattern: 'upload/photos', path: (params: { ad?: number } = {}) => withQuery('/upload/photos', params) },
  /** Media/Photos of a user's ad (SPEC: takes a user id). */
  'profile.photos': {
    pattern: 'profile/photos/:userId',
    path: (params: { userId: number; ad?: number }) => withQuery(`/profile/photos/${params.userId}`, { ad: params.ad }),
  },
} as const;

function withQuery(path: string, params: { ad?: number | undefined }): string {
  return params.ad === undefined ? path : `${path}?ad=${params.ad}`;
}
