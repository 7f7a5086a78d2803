/**
 * The caller's statements of reasons and their appeals (EU DSA art. 17, 20):
 *   GET  /api/statements                  own statements, newest first, paginated (`data` + `meta`)
 *   GET  /api/statements/{id}             one of them (someone else's: 403; unknown: 404)
 *   POST /api/statements/{id}/appeal      `{ text }` once per statement (409 the second time, or after `appeal_until`)
 * The services are in statement-views.ts.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataOf, successOf } from '#contract/answers.ts';
import { idParamsSchema } from '#contract/locations.ts';
import { API } from '#contract/routes.ts';
import { appealBodySchema, statementListSchema, statementSchema, statementsQuerySchema } from '#contract/statements.ts';
import { ok } from '../../answers.ts';
import { requireUser } from '../../plugins/session.ts';
import { appealStatement, listUserStatements, readOwnStatement } from './statement-views.ts';

export const statementsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  app.get(
    API.statements,
    { schema: { querystring: statementsQuerySchema, response: { 200: statementListSchema } }, config: { auth: true } },
    async (req, reply) => {
      const list = await listUserStatements(db, requireUser(req).id, req.query.page, req.query.per_page);
      reply.header('cache-control', 'private, no-store');
      return list;
    },
  );

  app.get(
    API.statement(':id'),
    { schema: { params: idParamsSchema, response: { 200: dataOf(statementSchema) } }, config: { auth: true } },
    async (req, reply) => {
      const statement = await readOwnStatement(db, requireUser(req).id, req.params.id);
      reply.header('cache-control', 'private, no-store');
      return { data: statement };
    },
  );

  app.post(
    API.statementAppeal(':id'),
    { schema: { params: idParamsSchema, body: appealBodySchema, response: { 201: successOf(statementSchema) } }, config: { auth: true } },
    async (req, reply) =>
      reply
        .status(201)
        .send(ok(req, 'statements.appealSent', await appealStatement(db, requireUser(req).id, req.params.id, req.body.text))),
  );
};
