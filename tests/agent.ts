/**
 * A browser-like client for app.inject(): keeps cookies between requests (honouring Max-Age=0 deletions),
 * sends the XHR header, and echoes the XSRF-TOKEN cookie like the PWA does.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

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
