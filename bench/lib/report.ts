/** docs/benchmarks.md from one run. Everything below the notes marker of the previous file is kept as it was. */
import type { BundleReport } from './bundle.ts';
import type { LoadResult } from './load.ts';
import { renderPhotoSection, type PhotoReport } from './photos.ts';
import type { Summary } from './stats.ts';

/** CPU time per request in ms: the app's main thread (with PGlite, the database too) and our own PostgreSQL cluster. */
export interface CpuPerRequest {
  app: number | undefined;
  db: number | undefined;
}

export interface ScenarioResult {
  id: string;
  label: string;
  /** How many distinct paths the connections cycle through. */
  paths: number;
  /** meta.total of the first path (how many ads match). */
  sampleTotal: number | undefined;
  probe: LoadResult;
  probeServer: Summary;
  probeCpu?: CpuPerRequest | undefined;
  load: LoadResult | undefined;
  loadServer: Summary | undefined;
  loadCpu?: CpuPerRequest | undefined;
}

export interface DatabaseRun {
  kind: 'postgres' | 'pglite';
  version: string;
  seedSeconds: number;
  ads: number;
  visible: number;
  listPath: string;
  listingBytes: number;
  results: ScenarioResult[];
}

export interface ReportInput {
  machine: { date: string; nproc: string; cpu: string; memoryGiB: number; node: string; os: string };
  ads: number;
  duration: number;
  probeSeconds: number;
  connections: number;
  bundle: BundleReport | undefined;
  runs: DatabaseRun[];
  /** The photo upload part (undefined when skipped). */
  photos?: PhotoReport;
  minutes: number;
  previous: string;
}

export const NOTES_MARKER = '<!-- Notes below this line are written by hand and kept when bench/run.ts rewrites this file. -->';

export const TARGETS = {
  listP95Ms: 10,
  listRps: 3_000,
  searchP95Ms: 30,
  jsKB: 170,
  cssKB: 40,
};

/** Issue 13 point 4: the listing without its cache, as ratios to the bare route of the same run (machines differ). */
export const MISS_TARGETS = {
  listShareOfBare: 0.08,
  listProbeP95Ms: 2,
  searchProbeP95Ms: 10,
  searchShareOfBare: 0.01,
  typoProbeP95Ms: 30,
};

const ms = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(2) : v.toFixed(1));
const trio = (s: Summary | undefined) => (s ? `${ms(s.p50)} / ${ms(s.p95)} / ${ms(s.p99)}` : '–');
const rps = (v: number | undefined) => (v === undefined ? '–' : Math.round(v).toLocaleString('en-US'));
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const yes = (ok: boolean) => (ok ? '**met**' : '**not met**');

const cpu = (c: CpuPerRequest | undefined, pglite: boolean) =>
  !c || c.app === undefined
    ? '–'
    : pglite
      ? `${c.app.toFixed(2)} (in-thread)`
      : `${c.app.toFixed(2)} / ${c.db === undefined ? '–' : c.db.toFixed(2)}`;

function scenarioTable(run: DatabaseRun, input: ReportInput): string {
  const pglite = run.kind === 'pglite';
  const lines = [
    `| Scenario | Matches | Server time, 1 connection: p50 / p95 / p99 ms | Server time, ${input.connections} connections: p50 / p95 / p99 ms | autocannon latency, ${input.connections} connections: p50 / p97.5 / p99 ms | req/s, ${input.connections} connections | CPU ms per request, ${input.connections} connections: app thread / PostgreSQL | Errors / non-2xx |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of run.results) {
    const l = r.load;
    const errors = (r.load?.errors ?? 0) + (r.load?.timeouts ?? 0) + r.probe.errors + r.probe.timeouts;
    const non2xx = (r.load?.non2xx ?? 0) + r.probe.non2xx;
    lines.push(
      `| ${r.label} | ${r.sampleTotal ?? '–'} | ${trio(r.probeServer)} (${r.probeServer.count} req) | ${trio(r.loadServer)} | ${
        l ? `${ms(l.latency.p50)} / ${ms(l.latency.p97_5)} / ${ms(l.latency.p99)}` : '–'
      } | ${rps(l?.rps)} | ${cpu(r.loadCpu, pglite)} | ${errors} / ${non2xx} |`,
    );
  }
  return lines.join('\n');
}

function get(run: DatabaseRun | undefined, id: string): ScenarioResult | undefined {
  return run?.results.find((r) => r.id === id);
}

function missTargets(input: ReportInput): string {
  const runs = input.runs;
  if (runs.length === 0) return '';
  const name = (r: DatabaseRun) => (r.kind === 'postgres' ? 'PostgreSQL' : 'PGlite');
  const out = [
    `| Target (cache off, ${input.ads.toLocaleString('en-US')} ads; ratios to the bare route of the same run) | ${runs.map((r) => `${name(r)} | Verdict`).join(' | ')} |`,
    `| --- | ${runs.map(() => '---: | ---').join(' | ')} |`,
  ];
  const share = (id: string, min: number) => (run: DatabaseRun) => {
    const r = get(run, id)?.load;
    const bare = get(run, 'bare')?.load;
    if (!r || !bare) return ['–', '–'];
    const v = r.rps / bare.rps;
    return [`${(v * 100).toFixed(1)} % (${rps(r.rps)} of ${rps(bare.rps)} req/s)`, yes(v >= min)];
  };
  const p95 = (id: string, max: number) => (run: DatabaseRun) => {
    const r = get(run, id);
    if (!r) return ['–', '–'];
    return [`${ms(r.probeServer.p95)} ms`, yes(r.probeServer.p95 <= max)];
  };
  const t = MISS_TARGETS;
  const rows: [string, (run: DatabaseRun) => string[]][] = [
    [
      `city + section, ${input.connections} connections: req/s ≥ ${t.listShareOfBare * 100} % of the bare route's`,
      share('list-miss', t.listShareOfBare),
    ],
    [`city + section, 1 connection: server-time p95 ≤ ${t.listProbeP95Ms} ms`, p95('list-miss', t.listProbeP95Ms)],
    [`free-text search, 1 connection: server-time p95 ≤ ${t.searchProbeP95Ms} ms`, p95('search-miss', t.searchProbeP95Ms)],
    [
      `free-text search, ${input.connections} connections: req/s ≥ ${t.searchShareOfBare * 100} % of the bare route's`,
      share('search-miss', t.searchShareOfBare),
    ],
    [`typo search, 1 connection: server-time p95 ≤ ${t.typoProbeP95Ms} ms`, p95('typo', t.typoProbeP95Ms)],
  ];
  for (const [label, cell] of rows) out.push(`| ${label} | ${runs.map((run) => cell(run).join(' | ')).join(' | ')} |`);
  return out.join('\n');
}

function targets(input: ReportInput): string {
  const pgRun = input.runs.find((r) => r.kind === 'postgres');
  const out: string[] = [];
  const row = (target: string, hit: string, miss: string, verdict: string) => out.push(`| ${target} | ${hit} | ${miss} | ${verdict} |`);
  out.push(
    `| Target (PostgreSQL, ${input.ads.toLocaleString('en-US')} ads) | Cache hit (same query repeated) | Cache miss (cache off, queries varied) | Verdict |`,
    '| --- | ---: | ---: | --- |',
  );
  if (pgRun) {
    const hit = get(pgRun, 'list-hit');
    const miss = get(pgRun, 'list-miss');
    const sHit = get(pgRun, 'search-hit');
    const sMiss = get(pgRun, 'search-miss');
    const bare = get(pgRun, 'bare');
    const p95 = (r?: ScenarioResult) => r?.loadServer?.p95 ?? NaN;
    const p95u = (r?: ScenarioResult) => r?.probeServer.p95 ?? NaN;
    const verdict = (pairs: [string, boolean][]) => pairs.map(([what, ok]) => `${what}: ${yes(ok)}`).join('; ');
    row(
      `city + section filter, server-time p95 ≤ ${TARGETS.listP95Ms} ms under ${input.connections} connections`,
      `${ms(p95(hit))} ms`,
      `${ms(p95(miss))} ms`,
      verdict([
        ['hit', p95(hit) <= TARGETS.listP95Ms],
        ['miss', p95(miss) <= TARGETS.listP95Ms],
      ]),
    );
    row(
      `… the same on a single connection (no queueing)`,
      `${ms(p95u(hit))} ms`,
      `${ms(p95u(miss))} ms`,
      verdict([
        ['hit', p95u(hit) <= TARGETS.listP95Ms],
        ['miss', p95u(miss) <= TARGETS.listP95Ms],
      ]),
    );
    row(
      `city + section filter ≥ ${TARGETS.listRps.toLocaleString('en-US')} req/s with ${input.connections} connections`,
      rps(hit?.load?.rps),
      rps(miss?.load?.rps),
      verdict([
        ['hit', (hit?.load?.rps ?? 0) >= TARGETS.listRps],
        ['miss', (miss?.load?.rps ?? 0) >= TARGETS.listRps],
      ]),
    );
    row(
      `free-text search, server-time p95 ≤ ${TARGETS.searchP95Ms} ms under ${input.connections} connections`,
      `${ms(p95(sHit))} ms`,
      `${ms(p95(sMiss))} ms`,
      verdict([
        ['hit', p95(sHit) <= TARGETS.searchP95Ms],
        ['miss', p95(sMiss) <= TARGETS.searchP95Ms],
      ]),
    );
    row(
      `… the same on a single connection (no queueing)`,
      `${ms(p95u(sHit))} ms`,
      `${ms(p95u(sMiss))} ms`,
      verdict([
        ['hit', p95u(sHit) <= TARGETS.searchP95Ms],
        ['miss', p95u(sMiss) <= TARGETS.searchP95Ms],
      ]),
    );
    if (bare?.load && hit?.load && miss?.load) {
      row(
        'listing throughput ÷ bare Fastify route with the same bytes (report only)',
        `${((hit.load.rps / bare.load.rps) * 100).toFixed(0)} %`,
        `${((miss.load.rps / bare.load.rps) * 100).toFixed(1)} %`,
        `bare route: ${rps(bare.load.rps)} req/s`,
      );
    }
  }
  const b = input.bundle;
  if (b?.ok) {
    out.push('', '| Target (build) | Measured (gzip) | Verdict |', '| --- | ---: | --- |');
    out.push(`| home route JS ≤ ${TARGETS.jsKB} KB | ${kb(b.js)} | ${yes(b.js <= TARGETS.jsKB * 1000)} |`);
    out.push(`| home route CSS ≤ ${TARGETS.cssKB} KB | ${kb(b.css)} | ${yes(b.css <= TARGETS.cssKB * 1000)} |`);
  } else if (b) {
    out.push('', `Bundle size: not measured (${b.source} failed):`, '', '```', b.error, '```');
  }
  return out.join('\n');
}

function bundleSection(b: BundleReport | undefined): string {
  if (!b) return 'Skipped (BENCH_SKIP_BUNDLE).';
  if (!b.ok) return `Not measured: ${b.source} failed.`;
  const lines = [
    `From a ${b.source}. The home route's JS = the entry chunk + its static imports + the home route chunk`,
    "(src/features/listings/routes/home.tsx) + that chunk's own static imports; CSS = the CSS of all of those.",
    'Each file gzipped on its own with Node zlib at the default level (6); 1 KB = 1000 bytes.',
    '',
    '| File | Role | Raw | Gzip |',
    '| --- | --- | ---: | ---: |',
  ];
  const byRole = (role: string) => b.files.filter((f) => f.role === role);
  for (const role of ['entry', 'entry import', 'start-up', 'home route', 'home import', 'css'] as const) {
    const files = byRole(role).sort((x, y) => y.gzip - x.gzip);
    for (const f of files) lines.push(`| ${f.file} | ${role} | ${kb(f.raw)} | ${kb(f.gzip)} |`);
  }
  lines.push(`| **JS total** | | ${kb(b.files.filter((f) => f.role !== 'css').reduce((n, f) => n + f.raw, 0))} | **${kb(b.js)}** |`);
  lines.push(`| **CSS total** | | ${kb(byRole('css').reduce((n, f) => n + f.raw, 0))} | **${kb(b.css)}** |`);
  return lines.join('\n');
}

/**
 * "## Targets" and "## Browse API": what `npm run bench -- --only api` rewrites. `buildTargets` replaces the build
 * rows of the targets (kept from the previous file when the bundle was not measured in this run).
 */
export function renderApiSections(input: ReportInput, buildTargets?: string): string {
  const runs = input.runs
    .map((run) =>
      [
        `### ${run.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}`,
        '',
        `${run.version}. ${run.ads.toLocaleString('en-US')} ads (${run.visible.toLocaleString('en-US')} visible), migrated + seeded + VACUUM ANALYZE in ${run.seedSeconds.toFixed(0)} s.`,
        `Cache-hit listing: \`GET ${run.listPath}\`, ${run.listingBytes.toLocaleString('en-US')} bytes; the bare and in-app memory routes answer those same bytes.`,
        '',
        scenarioTable(run, input),
      ].join('\n'),
    )
    .join('\n\n');
  return `## Targets

${missTargets(input)}

${targets(input)}${buildTargets ? `\n\n${buildTargets}` : ''}

## Browse API

Measured ${input.machine.date.slice(0, 16).replace('T', ' ')} UTC. Every scenario: 2 s warm-up (10 connections), then ${input.probeSeconds} s on a single connection (unloaded latency),
then ${input.duration} s with ${input.connections} connections. *Server time* = onRequest → onResponse hook in the app
(process.hrtime), so it includes waiting for a database connection but not time spent before Fastify sees the request.
*Cache hit* = the real app with its 5 s micro-cache, same query every time (one miss per 5 s). *Cache miss* = the same
app with \`LISTINGS_CACHE_TTL_MS=0\`, connections cycling through different queries. "Matches" = \`meta.total\` of the
first query. *CPU per request* = CPU time used during the ${input.connections}-connection run (and the drain after it) divided by
the requests answered: the app's main thread (not the load generator's worker; with PGlite it includes the database)
and, on PostgreSQL, every process of the throwaway cluster. On a shared machine it is steadier than req/s, which also
counts the time other work held the cores.

${runs}
`;
}

/** Replaces the "## Targets" … "## Browse API" part of an earlier report (up to "## Home route bundle"). */
export function spliceApiSections(previous: string, input: ReportInput): string {
  const start = previous.indexOf('## Targets');
  const end = previous.indexOf('## Home route bundle');
  if (start < 0 || end < start) throw new Error('--only api: the report has no "## Targets" … "## Home route bundle" part to replace');
  const old = previous.slice(start, end);
  const build = old.match(/\| Target \(build\)[^\n]*\n(?:\|[^\n]*\n?)*/)?.[0]?.trimEnd();
  return `${previous.slice(0, start)}${renderApiSections(input, build)}\n${previous.slice(end)}`;
}

export function renderReport(input: ReportInput): string {
  const m = input.machine;
  const kept = input.previous.includes(NOTES_MARKER)
    ? input.previous.slice(input.previous.indexOf(NOTES_MARKER) + NOTES_MARKER.length)
    : '\n';
  return `# Benchmarks

Written by \`npm run bench\` (bench/run.ts) — ${m.date.slice(0, 16).replace('T', ' ')} UTC, ${input.minutes.toFixed(1)} minutes. One run on one machine:
treat the figures as orders of magnitude, and re-run before comparing. Not part of \`npm test\`.

| Machine | |
| --- | --- |
| CPU | \`nproc\` = ${m.nproc} (${m.cpu}) |
| Memory | ${m.memoryGiB} GiB |
| Node | ${m.node} |
| OS | ${m.os} |
| Databases | ${input.runs.map((r) => r.version).join('; ') || '–'} |
| Load | autocannon 9 (programmatic API, in a worker thread of the same process), on the same machine as the server |

${renderApiSections(input)}
## Home route bundle

${bundleSection(input.bundle)}

${renderPhotoSection(input.photos)}

## Method and caveats

- Server, database and load generator share the machine (${m.nproc} cores): under load they compete for CPU, which
  lowers req/s and raises latency compared with a separate load machine.
- PostgreSQL runs on a throwaway cluster made like \`.ci/run\` (initdb defaults plus fsync off and
  max_connections=200) unless \`BENCH_DATABASE_URL\` points elsewhere; the app's \`pg\` pool holds 10 connections.
- PGlite runs inside the server's own process and thread (WASM, one query at a time), as in \`npm start\` without
  \`DATABASE_URL\`. PGlite has no autovacuum, so the bench runs VACUUM ANALYZE after seeding, on both databases.
- Server time starts when Fastify runs the request's first hook: time the request waits in the socket or the event
  loop before that is not in it (under load that is most of the wait), but it is in autocannon's latency.
- The machine may be shared with other work while the bench runs; repeated runs have differed by up to ~25 % in req/s.
- The bulk catalogue (server/db/seed/bulk-ads.ts) has no photos; ads are spread evenly over 12 cities and 6 sections.

${NOTES_MARKER}${kept}`;
}
