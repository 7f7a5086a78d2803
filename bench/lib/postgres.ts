/**
 * A throwaway PostgreSQL cluster for the benchmark, made like .ci/run makes one: initdb as the postgres user
 * (initdb refuses root), trust auth on 127.0.0.1, a free port, fsync off (only the seeding writes). Torn down by stop().
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { procCpuMs } from './server-timing.ts';

export interface Cluster {
  url: string;
  version: string;
  settings: string;
  /** CPU time of the whole cluster so far (postmaster, live backends, and the backends it has reaped), in ms. */
  cpuMs(): number | undefined;
  stop(): void;
}

/** The postmaster's own CPU plus its reaped children's, plus each live child's (backends, walwriter, …). */
function clusterCpuMs(dataDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  let total = procCpuMs(`/proc/${pid}/stat`, true);
  if (total === undefined) return undefined;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) total += procCpuMs(`/proc/${entry}/stat`) ?? 0;
    } catch {
      // gone meanwhile: its time is in the postmaster's reaped children's
    }
  }
  return total;
}

function pgBin(): string {
  if (process.env.BENCH_PGBIN) return process.env.BENCH_PGBIN;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(a) - Number(b)) : [];
  const bin = versions.length ? path.join(root, versions.at(-1)!, 'bin') : '';
  if (!bin || !fs.existsSync(path.join(bin, 'initdb'))) {
    throw new Error('No PostgreSQL binaries under /usr/lib/postgresql/*/bin: install postgresql, or set BENCH_DATABASE_URL');
  }
  return bin;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export async function startCluster(): Promise<Cluster> {
  const bin = pgBin();
  const isRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-pg.'));
  // As root, run the server as postgres (initdb refuses root); otherwise as ourselves.
  const run = (cmd: string) =>
    isRoot
      ? execFileSync('su', ['postgres', '-s', '/bin/bash', '-c', cmd], { stdio: ['ignore', 'pipe', 'pipe'] }).toString()
      : execFileSync('/bin/bash', ['-c', cmd], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    fs.chownSync(dir, uid, gid);
  }
  const port = Number(process.env.BENCH_PGPORT) || (await freePort());
  // BENCH_PG_OPTIONS: extra server options to try, e.g. "-c random_page_cost=1.1".
  const extra = process.env.BENCH_PG_OPTIONS?.trim() ?? '';
  if (!/^[\w\s=.,-]*$/.test(extra)) throw new Error('BENCH_PG_OPTIONS: only "-c name=value" options');
  const settings = `fsync=off, max_connections=200${extra ? `, ${extra.replace(/-c\s+/g, '').split(/\s+/).join(', ')}` : ''} (otherwise initdb defaults)`;
  let started = false;
  const stop = () => {
    if (started) {
      try {
        run(`'${bin}/pg_ctl' -D '${dir}/data' -m immediate stop`);
      } catch {
        // already down
      }
      started = false;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    run(`'${bin}/initdb' -D '${dir}/data' -U app --auth=trust -E UTF8 --locale=C.UTF-8`);
    run(
      `'${bin}/pg_ctl' -D '${dir}/data' -l '${dir}/log' -o "-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=200 ${extra}" -w start`,
    );
    started = true;
  } catch (err) {
    stop();
    throw err;
  }
  const version = execFileSync(path.join(bin, 'postgres'), ['--version']).toString().trim();
  return { url: `postgres://app@127.0.0.1:${port}/postgres`, version, settings, cpuMs: () => clusterCpuMs(`${dir}/data`), stop };
}
