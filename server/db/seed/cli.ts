/** `npm run db:seed`: migrates, then seeds reference (and demo) data into the configured database. */
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../client.ts';
import { parseArgs } from 'node:util';
import { createStorage } from '../../plugins/storage.ts';
import { seedAll } from './index.ts';
import { seedBulkAds } from './bulk-ads.ts';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await database.migrate();
// `npm run db:seed -- --ads 100000` adds a large catalogue (no photos) for benchmarks.
const { values } = parseArgs({ options: { ads: { type: 'string' } } });
await seedAll(database.db, config, createStorage(config));
if (values.ads) await seedBulkAds(database.db, Number(values.ads));
await database.close();
console.log(`Seed complete (${database.kind}).`);
