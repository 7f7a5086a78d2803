/** `npm run db:seed`: migrates, then seeds reference (and demo) data into the configured database. */
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../client.ts';
import { seedAll } from './index.ts';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await database.migrate();
await seedAll(database.db, config);
await database.close();
console.log(`Seed complete (${database.kind}).`);
