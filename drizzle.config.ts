import { defineConfig } from 'drizzle-kit';

// Used only by `drizzle-kit generate`: migrations are applied at start-up by the programmatic migrator.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
});
