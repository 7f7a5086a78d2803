import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

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
