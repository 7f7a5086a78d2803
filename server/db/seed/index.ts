import type { Config } from '../../config.ts';
import type { Db } from '../client.ts';
import { seedDemoUsers } from './demo-users.ts';
import { seedReferenceData } from './reference.ts';

/** Everything `npm start` seeds on a fresh database; each step is idempotent. */
export async function seedAll(db: Db, config: Config): Promise<void> {
  await seedReferenceData(db);
  await seedDemoUsers(db, config);
}
