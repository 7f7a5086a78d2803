/**
 * The built app served by `server/main.ts` as `npm start` serves it (own temp DATA_DIR, demo data, the given dist),
 * for the benchmarks that measure it through a real browser (transfer, lighthouse).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface AppServer {
  origin: string;
  stop(): void;
}

/**
 * This process's environment without NODE_ENV: the server in development mode, as `npm start` runs it for a person
 * (it seeds the demo catalogue; production seeds nothing and needs APP_KEY).
 */
export function developmentEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_ENV;
  return env;
}

export async function startAppServer(root: string, distDir: string, port: number, env: NodeJS.ProcessEnv): Promise<AppServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-app-'));
  const child: ChildProcess = spawn(path.join(root, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: root,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://localhost:${port}`,
      DATA_DIR: dataDir,
      DIST_DIR: distDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const origin = `http://localhost:${port}`;
  const stop = () => {
    child.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr.slice(-2000)}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return { origin, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      stop();
      throw new Error(`server did not start: ${stderr.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
