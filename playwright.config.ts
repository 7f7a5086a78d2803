import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests in real Chromium (Debian's, or CHROME_PATH) against the real server: the built PWA,
 * the API and a fresh embedded database in a temp folder. `npm run test:e2e` builds first.
 */
const PORT = Number(process.env.E2E_PORT ?? 8181);
/** The first worker's push service port (tests/push-service.ts); the second worker's is the next one. */
const PUSH_PORT = PORT + 11;
process.env.E2E_PUSH_PORT ??= String(PUSH_PORT);
const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
// Set once in the runner and inherited by the workers, so specs can read the server's mail outbox.
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `vitrina-e2e-${Date.now()}`);
const dataDir = process.env.E2E_DATA_DIR;

export default defineConfig({
  testDir: './e2e',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    // In CI, a trace only for a test's retry: recording every first attempt (DOM snapshots, screencast) took 17 % of the
    // end-to-end run's time on 2 cores (137 → 114 s on six specs). A test that fails twice has its retry's trace; a
    // first failure keeps its error context and a screenshot. Locally (no retries) every failure keeps its trace.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'npx tsx server/main.ts',
    url: `http://localhost:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(PORT),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      DEMO_PASSWORD: 'demo-password-123',
      DATABASE_URL: '',
      // Test hook (refused in production): a plain magenta photo is refused by the screening, so a spec can act out an
      // automated refusal (e2e/photo-review-request.spec.ts); every other photo meets the real local model.
      VITRINA_TEST_REFUSE_MAGENTA: '1',
      // Advertisers' numbers (issue 28) are written every half second, so a spec sees a view in the dashboard at once.
      AD_STATS_FLUSH_MS: '500',
      // Every spec registers its own accounts from the same loopback address; the default 20 an hour ran out in a full
      // run (CI's 429s in push, saved-searches, publicist). The limit itself is proven in auth.routes.test.ts.
      REGISTER_LIMIT_PER_HOUR: '1000',
      // Web Push (issue 25): the specs' own RFC 8030 push service (tests/push-service.ts) listens on loopback, one per
      // worker at E2E_PUSH_PORT + the worker's index, over HTTPS with the test CA the server trusts.
      PUSH_ENDPOINT_ORIGINS: [0, 1].map((i) => `https://127.0.0.1:${PUSH_PORT + i}`).join(','),
      NODE_EXTRA_CA_CERTS: path.resolve('tests/push-certs/ca.pem'),
    },
  },
});
