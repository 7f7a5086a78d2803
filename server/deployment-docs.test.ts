/**
 * Keeps the deployment files honest with the code: every variable server/config.ts reads is in the environment
 * reference of docs/deployment.md (and nothing there is a setting the server no longer reads), the compose file
 * passes the nodes only settings that exist and asks only for secrets deploy/.env.example names, and the Dockerfile
 * copies only paths that exist and are in the build context.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** The keys of `envSchema` in config.ts: its object's top-level properties (prettier keeps them at two spaces). */
function configVariables(): string[] {
  const source = read('server/config.ts');
  const start = source.indexOf('const envSchema = z.object({');
  const end = source.indexOf('\n});', start);
  expect(start, 'envSchema not found in server/config.ts').toBeGreaterThan(-1);
  return [...source.slice(start, end).matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
}

/** Variables named in the first column of the tables under "## Environment reference". */
function documentedVariables(): string[] {
  const doc = read('docs/deployment.md');
  const start = doc.indexOf('\n## Environment reference\n');
  expect(start, 'docs/deployment.md has no "## Environment reference" section').toBeGreaterThan(-1);
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end === -1 ? undefined : end);
  const names: string[] = [];
  for (const line of section.split('\n')) {
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const m of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.push(m[1]!);
  }
  return names;
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

describe('deployment files', () => {
  it('document every setting server/config.ts reads, and only those', () => {
    const read = configVariables();
    // The parse must have found the schema, not an empty slice that would make the comparison vacuous.
    expect(read).toEqual(expect.arrayContaining(['PORT', 'DATABASE_URL', 'APP_KEY', 'REDIS_URL', 'METRICS_TOKEN']));
    expect(read.length).toBeGreaterThan(40);
    const documented = documentedVariables();
    expect(sorted(read.filter((v) => !documented.includes(v))), 'read by server/config.ts, missing from the reference').toEqual([]);
    expect(sorted(documented.filter((v) => !read.includes(v))), 'in the reference, not read by server/config.ts').toEqual([]);
  });

  it('compose passes the nodes only existing settings and asks only for secrets the example env file names', () => {
    const compose = read('deploy/compose.yaml');
    const block = /^x-vitrina-environment: &vitrina-env\n((?: {2}.*\n)+)/m.exec(compose)?.[1];
    expect(block, 'x-vitrina-environment block not found in deploy/compose.yaml').toBeDefined();
    const passed = [...block!.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
    expect(passed).toEqual(expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'APP_KEY', 'APP_URL', 'TRUST_PROXY']));
    const settings = configVariables();
    expect(sorted(passed.filter((v) => !settings.includes(v))), 'passed to the nodes, not a setting').toEqual([]);

    const example = read('deploy/.env.example');
    const named = new Set([...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
    const values = compose
      .split('\n')
      .filter((l) => !/^\s*#/.test(l))
      .join('\n');
    const required = sorted([...values.matchAll(/\$\{([A-Z][A-Z0-9_]*):\?/g)].map((m) => m[1]!));
    expect(required.length).toBeGreaterThan(0);
    expect(
      required.filter((v) => !named.has(v)),
      'required by compose.yaml, absent from .env.example',
    ).toEqual([]);
  });

  it('the Dockerfile copies paths that exist and that .dockerignore leaves in the context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const sources = [...read('Dockerfile').matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/));
    expect(sources).toEqual(expect.arrayContaining(['server', 'contract', 'locales', 'package.json']));
    for (const src of sources) {
      expect(fs.existsSync(path.join(root, src)), `${src} does not exist`).toBe(true);
      expect(ignored, `${src} is excluded by .dockerignore`).not.toContain(src);
    }
  });
});

describe('what `npm start` users read and see (issue 24 D)', () => {
  it("the README's settings table names the demo accounts' password and the other start-up settings", () => {
    const readme = read('README.md');
    const rows = readme.split('\n').filter((line) => /^\| `[A-Z][A-Z0-9_]*`/.test(line));
    const names = rows.map((line) => /^\| `([A-Z][A-Z0-9_]*)`/.exec(line)![1]!);
    expect(names).toEqual(expect.arrayContaining(['PORT', 'APP_URL', 'DATA_DIR', 'SMTP_URL', 'SEED_DEMO', 'DEMO_PASSWORD']));
  });

  it('`npm start` builds the PWA without printing every chunk (the build script alone stays verbose)', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    // Since issue 27 the build runs only when its inputs changed (vite/build-if-changed.ts), still quietly.
    // The server then runs precompiled (dist-server/, vite/build-server.ts) under the memory settings of decision 0026.
    expect(scripts.start).toMatch(/^tsx vite\/build-if-changed\.ts && ([A-Z_]+=\d+ )*node( --[a-z-]+=\d+)* dist-server\/main\.js$/);
    expect(read('vite/build-if-changed.ts')).toMatch(/\['vite', 'build', '--logLevel', '(warn|error)'\]/);
    expect(scripts.start).not.toMatch(/npm run build/);
    expect(scripts.build).toBe('vite build');
  });
});
