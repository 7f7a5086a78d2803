/**
 * Entry point of `npm start`: validates the configuration, opens and migrates the database (PGlite under
 * DATA_DIR unless DATABASE_URL is set), seeds reference and demo data, then serves app, API and websocket.
 */
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { seedAll } from './db/seed/index.ts';
import { startupLine } from './plugins/request-log.ts';
import { createDiskStorage } from './plugins/storage.ts';
import { sweepMediaLeftovers } from './modules/media/orphans.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const storage = createDiskStorage(config.dataDir);
  await seedAll(database.db, config, storage);
  const app = await buildApp(config, database, storage);

  const shutdown = async (signal: string) => {
    app.log.info(`${signal}: shutting down`);
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({
    port: config.port,
    host: config.host,
    listenTextResolver: (address) => startupLine(config, database.kind, address),
  });
  // After listening, not before: a large media folder must not delay start-up, and nothing it removes is served anyway.
  sweepMediaLeftovers(database.db, storage).then(
    (removed) => app.log.info(removed, 'media: crash leftovers removed'),
    (err: unknown) => app.log.error({ err }, 'media: sweeping crash leftovers failed'),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
