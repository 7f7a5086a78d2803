/**
 * Throwaway local processes the realtime tests and the bench both start: a free loopback port and a redis-server
 * that saves nothing, in its own temp dir.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => fs.existsSync(p));

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

/** A throwaway redis-server on loopback: random port (or `port`, to start one again where it was), nothing saved, its own temp dir. */
export async function startRedis(port?: number): Promise<RedisServer> {
  if (!REDIS_SERVER) throw new Error('redis-server not installed');
  port ??= await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-redis-'));
  const child: ChildProcess = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
