/**
 * The routes registered in a running app, read from Fastify's own route tree rather than listed by hand, so a test
 * that walks them (the role matrix, the fuzz suite) covers a route added later the day it is registered.
 */
import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  path: string;
}

/** `printRoutes` draws a tree (4 columns per level, a child's path continues its parent's): flattened to method + path. */
export function routesOf(app: FastifyInstance): RegisteredRoute[] {
  const out: RegisteredRoute[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = line.match(/^([│├└─\s]*)(\S.*?)(?: \(([A-Z, ]+)\))?$/);
    if (!m) continue;
    const depth = Math.floor(m[1]!.length / 4);
    stack.length = depth;
    stack[depth] = m[2]!;
    const path = stack.join('');
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) out.push({ method, path });
  }
  return out;
}
