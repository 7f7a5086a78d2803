/**
 * Issue 28: routes of this module (placeholder until the area's work lands; see contract/routes.ts for the paths).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const savedSearchesRoutes: FastifyPluginAsyncZod = async () => {};
