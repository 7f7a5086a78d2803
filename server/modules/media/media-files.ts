/**
 * GET /media/* — the stored files (registered by media.routes.ts, which shares its visibility cache). Photos (`ads/{adId}/{uid}/{width}.webp`) are served to everyone only while their
 * ad is publicly listed, cached for PUBLIC_MAX_AGE_S by any cache (docs/decisions/0020: a takedown must reach shared
 * caches within a bound, so not the year a never-rewritten name would allow) and then revalidated by ETag; otherwise only
 * to the ad's owner, the model's publicist and staff, with `private, no-store`, and to anyone else as a plain 404 (a private photo's
 * existence is not revealed). Only a photo with its media row is served at all: a file a crash left behind without
 * one is a 404 for everyone (modules/media/orphans.ts removes such files at start-up). Promoted-placement images (`promo/…`) are public. Nothing else under storage is served:
 * whatever another module keeps there (verification selfies, the demo's illustration pool) stays private.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../../plugins/session.ts';
import { canEditAd } from './ad-access.ts';
import type { VisibilityCache } from './media-visibility.ts';

const PHOTO = /^ads\/(\d{1,10})\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/(\d{1,5})\.webp$/;
const PROMO = /^promo\/[A-Za-z0-9_-]{1,150}\.webp$/;

/**
 * How long a browser or a shared cache may show a public photo without asking again. A suspension, an erasure or a
 * takedown makes the URL a 404 at once (plus at most VISIBILITY_TTL_MS on other nodes); a cache that kept the photo
 * stops showing it when this runs out, since its revalidation is answered 404 (docs/deployment.md states the bound).
 */
export const PUBLIC_MAX_AGE_S = 300;
const PUBLIC_CACHE = `public, max-age=${PUBLIC_MAX_AGE_S}`;
const PRIVATE_CACHE = 'private, no-store';

async function send(req: FastifyRequest, reply: FastifyReply, app: FastifyInstance, key: string, cacheControl: string) {
  const etag = `"${key.replaceAll('/', '-')}"`;
  reply.header('cache-control', cacheControl);
  if (cacheControl === PUBLIC_CACHE) {
    reply.header('etag', etag);
    if (req.headers['if-none-match'] === etag) return reply.status(304).send();
  }
  const file = await app.storage.read(key);
  if (!file) return reply.status(404).header('cache-control', 'no-store').type('text/plain').send('Not found');
  return reply.type('image/webp').header('content-length', file.size).send(file.stream);
}

export function registerMediaFiles(app: FastifyInstance, visibility: VisibilityCache): void {
  app.get('/media/*', async (req, reply) => {
    const key = (req.params as { '*': string })['*'];
    const notFound = () => reply.status(404).header('cache-control', 'no-store').type('text/plain').send('Not found');
    if (PROMO.test(key)) return send(req, reply, app, key, PUBLIC_CACHE);
    const m = PHOTO.exec(key);
    if (!m) return notFound();
    const seen = await visibility.get(Number(m[1]));
    if (!seen || !seen.photos.get(m[2]!)?.includes(Number(m[3]))) return notFound();
    if (seen.listed) return send(req, reply, app, key, PUBLIC_CACHE);
    // Not listed: only its owner and staff. The session is looked up here only, so public files cost no query for it.
    await authenticate(app, req, reply);
    if (!canEditAd(req.user, seen.ownerUserId, seen.publicistUserId)) return notFound();
    return send(req, reply, app, key, PRIVATE_CACHE);
  });
}
