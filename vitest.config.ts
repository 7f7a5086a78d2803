import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Server tests that never reach the database, or always start their own embedded one (`DATABASE_URL: ''`). The server
 * suite runs twice in CI, on PGlite then on PostgreSQL (test:server:pg, which sets SERVER_TESTS_DATABASE_ONLY): the
 * second run leaves these out, as it would only repeat them (about a minute and a half of the suite on 2 cores).
 */
const DATABASE_FREE = [
  'server/db/seed/reference-data.test.ts',
  'server/fuzz/generate.test.ts',
  'server/modules/forbidden-words/forbidden-words.lists.test.ts',
  'server/modules/forbidden-words/forbidden-words.test.ts',
  'server/modules/listings/typos.test.ts',
  'server/modules/media/image-pipeline.test.ts',
  'server/modules/media/photo-hash-quality.test.ts',
  'server/modules/moderation/moderation.test.ts',
  'server/modules/push/vapid.test.ts',
  'server/plugins/mail-log.test.ts',
  'server/plugins/request-id.test.ts',
  'server/plugins/request-log.test.ts',
  'server/plugins/storage-migrate.test.ts',
  'server/plugins/storage.test.ts',
  'server/realtime/config.test.ts',
  'server/realtime/conformance.test.ts',
  'server/realtime/redis.test.ts',
  'server/realtime/upgrade-path.test.ts',
  'server/runtime-dependencies.test.ts',
];

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
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...(process.env.SERVER_TESTS_DATABASE_ONLY ? DATABASE_FREE : [])],
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
