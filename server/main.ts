/**
 * Entry point of `npm start`: validates the configuration, opens and migrates the database (PGlite under
 * DATA_DIR unless DATABASE_URL is set), seeds reference and demo data, then serves app, API and websocket.
 *
 * Several processes may start at once on one PostgreSQL: migrating and seeding run under the database's start-up
 * lock (db/client.ts), one process after the other. SIGTERM or SIGINT stops the process cleanly (see `shutdown`).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/client.ts';
import { seedAll } from './db/seed/index.ts';
import { startupLineResolver } from './plugins/request-log.ts';
import { createStorage } from './plugins/storage.ts';
import { sweepMediaLeftovers } from './modules/media/orphans.ts';

/** How long a stopping process lets requests in flight finish before cutting them. */
const SHUTDOWN_GRACE_MS = 10_000;
/** After the grace, how long the remaining clean-up (jobs in hand, database) may take before the process just exits. */
const HARD_STOP_EXTRA_MS = 5_000;

/**
 * The first start on a new embedded database with the demo catalogue migrates and seeds it in a child process
 * (`npm run db:seed`'s script, same environment), then opens it here. Drawing and encoding the demo photos leaves
 * ≈400 MB in the C allocator's per-thread arenas (libvips), which glibc keeps for the life of the process: in a child,
 * the memory goes with it (issue 27: a fresh `npm start` idles within 350 MB). Later starts find the data and only check
 * it, here. PostgreSQL (DATABASE_URL) seeds here as before, under its start-up lock.
 */
function seedsInChild(config: Config): boolean {
  return !config.databaseUrl && config.seedDemo && config.demoAds > 0 && !fs.existsSync(path.join(config.dataDir, 'pg', 'PG_VERSION'));
}

/** Set by the server's build (vite/build-server.ts) to the bundle's URL; undefined when the sources run under tsx. */
declare const __bundleUrl: string | undefined;

async function seedInChild(): Promise<void> {
  const script =
    typeof __bundleUrl === 'string'
      ? fileURLToPath(new URL('./seed.js', __bundleUrl))
      : fileURLToPath(new URL('./db/seed/cli.ts', import.meta.url));
  // execArgv carries this process's Node options (under tsx, its TypeScript loader).
  const child = spawn(process.execPath, [...process.execArgv, script], { stdio: 'inherit', env: process.env });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode, signal) => resolve(signal ? 1 : exitCode));
  });
  if (code !== 0) throw new Error(`seeding the new database failed (the seed process exited with ${code})`);
}

async function main() {
  // libvips' operation cache (up to 50 MB and 100 operations by default) only helps when the same image is worked on
  // again; every photo and demo illustration here is new, so it held memory for nothing (issue 27).
  sharp.cache(false);
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
  if (seedsInChild(config)) await seedInChild();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const storage = createStorage(config);
  await database.exclusive(() => seedAll(database.db, config, storage));
  const app = await buildApp(config, database, storage);

  /**
   * Fastify's close, in order: new requests are answered 503 with `Connection: close` (return503OnClosing); the
   * websockets are closed with 4200 so their clients reconnect at once, to another process or this one restarted
   * (plugins/realtime.ts, preClose); the listening socket closes (new connections are refused) and idle kept-alive
   * connections with it; the requests in flight finish; then the plugins' onClose hooks run — the job runner stops
   * polling and waits for the jobs in hand, Redis connections close. Then the database closes and the process exits 0.
   * A request still running after SHUTDOWN_GRACE_MS is cut; a job outliving the hard stop keeps its lease until it
   * expires and then runs again elsewhere (jobs are at-least-once).
   */
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      app.log.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    // A connection whose request finishes during the drain stays kept-alive: closed as soon as it is idle.
    const idle = setInterval(() => app.server.closeIdleConnections(), 100).unref();
    const cut = setTimeout(() => {
      app.log.warn(`shutdown: requests still running after ${SHUTDOWN_GRACE_MS} ms are cut`);
      app.server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS).unref();
    const hardStop = setTimeout(() => {
      app.log.error('shutdown: still not closed, exiting anyway');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + HARD_STOP_EXTRA_MS).unref();
    let code = 0;
    try {
      await app.close();
    } catch (err) {
      app.log.error({ err }, 'shutdown: closing the app failed');
      code = 1;
    }
    clearInterval(idle);
    clearTimeout(cut);
    try {
      await database.close();
    } catch (err) {
      app.log.error({ err }, 'shutdown: closing the database failed');
      code = 1;
    }
    clearTimeout(hardStop);
    app.log.info('shutdown: done');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({
    port: config.port,
    host: config.host,
    listenTextResolver: startupLineResolver(config, database.kind),
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
