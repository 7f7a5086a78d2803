/** Health check and the public runtime configuration of the browser (no secrets). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { LANGUAGES } from '#contract/languages.ts';
import { publicConfigSchema } from '#contract/config.ts';
import { API } from '#contract/routes.ts';

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(API.health, async () => {
    await app.db.execute(sql`select 1`);
    return { status: 'ok', database: app.dbKind };
  });
  app.get(API.config, { schema: { response: { 200: publicConfigSchema } } }, async () => ({
    app_name: 'Vitrina',
    languages: [...LANGUAGES],
    realtime: null,
  }));
};
