import { eq, sql } from 'drizzle-orm';
import type { User } from '#contract/auth.ts';
import type { Db } from '../../db/client.ts';
import { modelProfiles, publicistProfiles, users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row;
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function hasProfile(db: Db, user: UserRow): Promise<boolean> {
  if (user.role === 'model')
    return (await db.select({ id: modelProfiles.id }).from(modelProfiles).where(eq(modelProfiles.userId, user.id))).length > 0;
  if (user.role === 'publicist')
    return (await db.select({ id: publicistProfiles.id }).from(publicistProfiles).where(eq(publicistProfiles.userId, user.id))).length > 0;
  return true;
}

export async function toUserDto(db: Db, user: UserRow): Promise<User> {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    status: user.status,
    email_verified_at: user.emailVerifiedAt?.toISOString() ?? null,
    locale: user.locale,
    has_profile: await hasProfile(db, user),
    created_at: user.createdAt.toISOString(),
  };
}
