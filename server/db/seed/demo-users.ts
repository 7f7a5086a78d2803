/**
 * One verified demo account per role, so a new user of `npm start` can look around at once. The password is
 * DEMO_PASSWORD, or a random one kept in DATA_DIR/demo-password and printed at every start. Never in production.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.ts';
import { hashPassword } from '../../modules/auth/passwords.ts';
import { findUserByEmail } from '../../modules/auth/users.repository.ts';
import type { Db } from '../client.ts';
import { modelProfiles, publicistProfiles, users } from '../schema.ts';

export const DEMO_ACCOUNTS = [
  { email: 'superadmin@vitrina.test', name: 'Super Admin', role: 'super_admin' },
  { email: 'admin@vitrina.test', name: 'Admin', role: 'admin' },
  { email: 'publicist@vitrina.test', name: 'Agencia Norte', role: 'publicist' },
  { email: 'model@vitrina.test', name: 'Lucía', role: 'model' },
  { email: 'client@vitrina.test', name: 'Cliente Demo', role: 'client' },
] as const;

function demoPassword(config: Config): { password: string; source: string } {
  if (config.demoPassword) return { password: config.demoPassword, source: 'DEMO_PASSWORD' };
  if (config.dataDir === ':memory:') return { password: crypto.randomBytes(12).toString('base64url'), source: 'random' };
  const file = path.join(config.dataDir, 'demo-password');
  try {
    return { password: fs.readFileSync(file, 'utf8').trim(), source: file };
  } catch {
    const password = crypto.randomBytes(12).toString('base64url');
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, password, { mode: 0o600 });
    return { password, source: file };
  }
}

/** Returns the password the accounts were created with (undefined when nothing was seeded). */
export async function seedDemoUsers(db: Db, config: Config, log: (msg: string) => void = console.log): Promise<string | undefined> {
  if (!config.seedDemo || config.env === 'production') return undefined;
  const { password, source } = demoPassword(config);
  let passwordHash: string | undefined;
  for (const account of DEMO_ACCOUNTS) {
    if (await findUserByEmail(db, account.email)) continue;
    passwordHash ??= await hashPassword(password);
    const [user] = await db
      .insert(users)
      .values({ ...account, passwordHash, status: 'active', locale: 'es', emailVerifiedAt: new Date() })
      .returning({ id: users.id });
    if (account.role === 'model') await db.insert(modelProfiles).values({ userId: user!.id, displayName: 'Lucía', status: 'active' });
    if (account.role === 'publicist')
      await db.insert(publicistProfiles).values({ userId: user!.id, displayName: 'Agencia Norte', status: 'active' });
  }
  if (config.env !== 'test') {
    log(
      `Demo accounts (${DEMO_ACCOUNTS.map((a) => a.email).join(', ')}) — password: ${password}${source === 'DEMO_PASSWORD' ? ' (DEMO_PASSWORD)' : ` (kept in ${source})`}`,
    );
  }
  return password;
}
