import fs from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * With a PostgreSQL server (CI: TEST_DATABASE_URL), the whole server suite runs on it (test:server:pg) and the PGlite
 * run keeps only these files (test:server:pglite sets SERVER_TESTS_PGLITE_SUBSET), decision 0031: the embedded
 * database's own behaviour (its data folder's lock, a kill -9 or a crash mid-write, npm start's demo data), the modules
 * whose code reads the two drivers' answers differently (raw rows, dates as strings, one connection for a transaction,
 * the pg_trgm and unaccent extensions), the job runner PGlite has instead of LISTEN/NOTIFY, and the fuzzer over every
 * route. The end-to-end suite runs the whole product on PGlite besides. Without a PostgreSQL server every file runs on
 * PGlite, as before.
 */
const PGLITE_SUBSET = [
  'server/db/seed/demo-photos.test.ts',
  'server/db/startup-lock.test.ts',
  'server/fuzz/fuzz.test.ts',
  'server/lifecycle.test.ts',
  'server/modules/ad-stats/ad-stats.test.ts',
  'server/modules/admin/review-queue.test.ts',
  'server/modules/favourites/favourites.test.ts',
  'server/modules/jobs/jobs.test.ts',
  'server/modules/listings/listings.routes.test.ts',
  'server/modules/listings/search-page.test.ts',
  'server/modules/model-profiles/model-with-ad.test.ts',
  'server/modules/reference/reference.routes.test.ts',
  'server/plugins/idempotency.crash.test.ts',
];
// A file renamed or removed would silently drop out of the PGlite run: said here instead.
for (const file of PGLITE_SUBSET) {
  if (!fs.existsSync(new URL(file, import.meta.url))) throw new Error(`vitest.config.ts PGLITE_SUBSET: ${file} does not exist`);
}

// Two projects: browser-side code in jsdom, server code in Node against a real database (PGlite, or
// PostgreSQL when DATABASE_URL is set). Timing-sensitive checks live in bench/, never here.
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}', 'contract/**/*.test.ts', 'sw/**/*.test.ts', 'tests/**/*.test.ts', 'vite/**/*.test.ts'],
          setupFiles: ['tests/setup-dom.ts'],
          // Vitest's default left one worker on a 2-core machine (56% CPU): two took the run from 97 s to 63 s.
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: process.env.SERVER_TESTS_PGLITE_SUBSET === '1' ? PGLITE_SUBSET : ['server/**/*.test.ts'],
          exclude: configDefaults.exclude,
          globalSetup: ['tests/pglite-snapshot.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          maxWorkers: 2,
        },
      },
    ],
  },
});
