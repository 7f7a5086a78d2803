/**
 * Tests only: signing in as a factory-made user, and multipart bodies for app.inject().
 */
import crypto from 'node:crypto';
import { API } from '#contract/routes.ts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { users } from '#server/db/schema.ts';
import { hashPassword } from '#server/modules/auth/passwords.ts';
import { newAgent, type Agent } from '#tests/agent.ts';

const PASSWORD = 'a long enough media test secret 7';
let passwordHash: Promise<string> | undefined;

/** A real session for an existing user (the factory's placeholder hash is replaced by a known password's). */
export async function loginAs(app: FastifyInstance, db: Db, userId: number): Promise<Agent> {
  passwordHash ??= hashPassword(PASSWORD);
  const [user] = await db
    .update(users)
    .set({ passwordHash: await passwordHash })
    .where(eq(users.id, userId))
    .returning({ email: users.email });
  const agent = await newAgent(app);
  const res = await agent.post(API.login, { email: user!.email, password: PASSWORD });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return agent;
}

export type FormPart = { name: string; value: string } | { name: string; filename: string; contentType?: string; data: Buffer };

/** A multipart/form-data body, parts in the order given (as a browser's FormData sends them). */
export function multipart(
  parts: FormPart[],
  boundary = `----vitrina${crypto.randomBytes(8).toString('hex')}`,
): { payload: Buffer; headers: Record<string, string> } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('value' in p) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\n` +
            `Content-Type: ${p.contentType ?? 'image/jpeg'}\r\n\r\n`,
        ),
        p.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POST /api/upload/images with `ad_id` first, then the files (field `images` unless told). */
export function uploadBody(adId: number | string, files: { filename: string; data: Buffer; contentType?: string; field?: string }[]) {
  return multipart([
    { name: 'ad_id', value: String(adId) },
    ...files.map((f) => ({ name: f.field ?? 'images', filename: f.filename, contentType: f.contentType ?? 'image/jpeg', data: f.data })),
  ]);
}
