/**
 * A browser-like client for app.inject(): keeps cookies between requests (honouring Max-Age=0 deletions),
 * sends the XHR header, and echoes the XSRF-TOKEN cookie like the PWA does.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { users } from '#server/db/schema.ts';
import { hashPassword } from '#server/modules/auth/passwords.ts';
import { buildUser, type UserSpec } from './factories.ts';

export class Agent {
  readonly cookies = new Map<string, string>();
  constructor(private readonly app: FastifyInstance) {}

  async csrf(): Promise<void> {
    await this.request({ method: 'GET', url: '/sanctum/csrf-cookie' });
  }

  async request(opts: InjectOptions & { method: string; url: string }): Promise<LightMyRequestResponse> {
    const xsrf = this.cookies.get('XSRF-TOKEN');
    const res = await this.app.inject({
      ...opts,
      headers: { 'x-requested-with': 'XMLHttpRequest', ...(xsrf ? { 'x-xsrf-token': xsrf } : {}), ...(opts.headers ?? {}) },
      cookies: Object.fromEntries(this.cookies),
    });
    for (const c of res.cookies) {
      if (c.maxAge === 0 || c.value === '' || (c.expires && c.expires.getTime() < Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request({ method: 'GET', url, ...(headers ? { headers } : {}) });
  }
  post(url: string, payload?: unknown, headers?: Record<string, string>) {
    return this.request({ method: 'POST', url, payload: payload as InjectOptions['payload'], ...(headers ? { headers } : {}) });
  }
  put(url: string, payload?: unknown) {
    return this.request({ method: 'PUT', url, payload: payload as InjectOptions['payload'] });
  }
  delete(url: string) {
    return this.request({ method: 'DELETE', url });
  }
}

export async function newAgent(app: FastifyInstance): Promise<Agent> {
  const agent = new Agent(app);
  await agent.csrf();
  return agent;
}

/** The verification link of the last mail to `email` in the in-memory outbox, as its query-string parts. */
export function linkIn(text: string, pattern: RegExp): string {
  const m = text.match(pattern);
  if (!m) throw new Error(`no link matching ${pattern} in:\n${text}`);
  return m[0];
}

/**
 * A signed-in agent for a fresh user made by the factory (verified unless `verified: false`): real login, real
 * session cookie, real CSRF token. Hashing the password costs one argon2 run per call.
 */
export async function signedIn(
  app: FastifyInstance,
  db: Db,
  spec: UserSpec = {},
): Promise<{ agent: Agent; user: { id: number; email: string } }> {
  const user = await buildUser(db, spec);
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(TEST_PASSWORD) })
    .where(eq(users.id, user.id));
  const agent = await newAgent(app);
  const res = await agent.post('/api/login', { email: user.email, password: TEST_PASSWORD });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return { agent, user };
}
const TEST_PASSWORD = 'a long enough test secret 42';
