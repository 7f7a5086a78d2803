/**
 * Throwaway local processes the realtime tests and the bench both start: a free loopback port and a redis-server
 * that saves nothing, in its own temp dir.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { S3Credentials, type S3StorageConfig } from '../server/config.ts';

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

/** The newest installed PostgreSQL server binaries (Debian's layout), if any. */
export const POSTGRES_BIN = (() => {
  try {
    return fs
      .readdirSync('/usr/lib/postgresql')
      .sort((x, y) => Number(x) - Number(y))
      .map((v) => `/usr/lib/postgresql/${v}/bin`)
      .filter((bin) => fs.existsSync(`${bin}/initdb`))
      .at(-1);
  } catch {
    return undefined;
  }
})();

export interface PostgresServer {
  /** A superuser URL to the `postgres` database (createServerDatabase makes test databases from it). */
  url: string;
  stop(): Promise<void>;
}

/**
 * A throwaway PostgreSQL cluster on a random loopback port, in its own temp dir, fsync off (for tests where no
 * PostgreSQL server was given). initdb refuses to run as root: as root, the cluster is made and run as `postgres`.
 */
export async function startPostgres(): Promise<PostgresServer> {
  if (!POSTGRES_BIN) throw new Error('PostgreSQL server binaries not installed');
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    fs.chownSync(dir, id('-u'), id('-g'));
  }
  const run = (tool: string, args: string[]) => {
    const argv = [`${POSTGRES_BIN}/${tool}`, ...args];
    if (!asRoot) return execFileSync(argv[0]!, argv.slice(1), { stdio: 'pipe' });
    const quoted = argv.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
    return execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', quoted], { stdio: 'pipe' });
  };
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'app', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=100`;
  run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', 'start']);
  return {
    url: `postgres://app@127.0.0.1:${port}/postgres`,
    async stop() {
      run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface S3Server {
  /** http://127.0.0.1:port (path-style: set S3_FORCE_PATH_STYLE=true). */
  endpoint: string;
  port: number;
  /** An empty bucket made at start. */
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The app's storage settings for this server and bucket (what loadConfig makes of `env`). */
  storageConfig: S3StorageConfig;
  /** The same as the environment of a Vitrina process (STORAGE_DRIVER=s3 and the S3_* settings). */
  env: Record<string, string>;
  /** Stops the server (its process ends, open connections with it) and removes its files. */
  stop(): Promise<void>;
}

/**
 * A throwaway S3-protocol server (s3rver, a dev dependency) on loopback, in a process of its own: random port (or
 * `port`), its own temp dir, one empty bucket. s3rver accepts only its built-in key pair (S3RVER / S3RVER). Its
 * process runs with the OpenSSL legacy provider: s3rver makes ListObjectsV2 continuation tokens with DES, which
 * Node 17+ refuses otherwise (every listing longer than a page failed with a 500).
 */
const S3RVER_KEY = 'S3RVER';

export async function startS3(port = 0, bucket = 'vitrina-test'): Promise<S3Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-s3-'));
  const script = `
    const S3rver = require(${JSON.stringify(createRequire(import.meta.url).resolve('s3rver'))});
    const server = new S3rver({ port: ${port}, address: '127.0.0.1', directory: ${JSON.stringify(dir)}, silent: true,
      configureBuckets: [{ name: ${JSON.stringify(bucket)}, configs: [] }] });
    server.run().then((a) => console.log(JSON.stringify({ port: a.port })), (e) => { console.error(e); process.exit(1); });
    process.stdin.on('end', () => process.exit(0)).resume();`;
  // Its stdin is a pipe from this process: when this process ends however it ends, the server ends with it.
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  const started = await new Promise<number>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /\{"port":(\d+)\}/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}): ${err}`)));
  });
  const endpoint = `http://127.0.0.1:${started}`;
  const region = 'us-east-1';
  return {
    endpoint,
    port: started,
    bucket,
    region,
    accessKeyId: S3RVER_KEY,
    secretAccessKey: S3RVER_KEY,
    storageConfig: { driver: 's3', endpoint, region, bucket, forcePathStyle: true, credentials: new S3Credentials(S3RVER_KEY, S3RVER_KEY) },
    env: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: region,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: S3RVER_KEY,
      S3_SECRET_ACCESS_KEY: S3RVER_KEY,
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
