/** `npm start` rebuilds only when the build's inputs changed (issue 27 point 4). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildFingerprint, buildIsCurrent, serverBuildIsCurrent, writeServerStamp, writeStamp } from './build-stamp.ts';

let root: string;
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};
/** A complete build made from the inputs as they are now. */
const build = () => {
  write('dist/index.html', '<!doctype html>');
  fs.mkdirSync(path.join(root, 'dist/.ssr'), { recursive: true });
  writeStamp(path.join(root, 'dist'), buildFingerprint(root, {}));
};

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-stamp-'));
  write('src/main.tsx', 'render()');
  write('locales/es/common.json', '{"hola":"Hola"}');
  write('package-lock.json', '{}');
  write('index.html', '<div id="root"></div>');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the build stamp', () => {
  it('keeps a build of unchanged sources, even when their files were copied or touched', () => {
    build();
    expect(buildIsCurrent(root, path.join(root, 'dist'), buildFingerprint(root, {}))).toBe(true);
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, 'src/main.tsx'), later, later);
    expect(buildIsCurrent(root, path.join(root, 'dist'), buildFingerprint(root, {}))).toBe(true);
  });

  it.each([
    ['a source file changes', () => write('src/main.tsx', 'render(2)')],
    ['a source file is added', () => write('src/other.ts', 'export {}')],
    ['a translation changes', () => write('locales/es/common.json', '{"hola":"¡Hola!"}')],
    ['the lockfile changes', () => write('package-lock.json', '{"lockfileVersion":3}')],
  ])('asks for a rebuild when %s', (_what, change) => {
    build();
    change();
    expect(buildIsCurrent(root, path.join(root, 'dist'), buildFingerprint(root, {}))).toBe(false);
  });

  it('does not rebuild for a changed test file, which the build never reads', () => {
    build();
    write('src/main.test.tsx', 'it()');
    expect(buildIsCurrent(root, path.join(root, 'dist'), buildFingerprint(root, {}))).toBe(true);
  });

  it('asks for a build when there is none, or an incomplete one', () => {
    expect(buildIsCurrent(root, path.join(root, 'dist'))).toBe(false);
    build();
    fs.rmSync(path.join(root, 'dist/.ssr'), { recursive: true });
    expect(buildIsCurrent(root, path.join(root, 'dist'), buildFingerprint(root, {}))).toBe(false);
  });

  it('tells builds of another BUILD_ID apart (the build writes it into the app)', () => {
    expect(buildFingerprint(root, { BUILD_ID: 'a' })).not.toBe(buildFingerprint(root, { BUILD_ID: 'b' }));
  });
});

describe("the server build's stamp (dist-server/, vite/build-server.ts)", () => {
  const out = () => path.join(root, 'dist-server');
  /** A server build that read `inputs`, as esbuild's metafile names them. */
  const buildServer = (inputs = ['server/main.ts', 'contract/routes.ts']) => {
    write('dist-server/main.js', 'serve()');
    writeServerStamp(root, out(), inputs);
  };
  beforeEach(() => {
    write('server/main.ts', 'serve()');
    write('contract/routes.ts', 'export const API = {}');
    write('server/main.test.ts', 'it()');
  });

  it('keeps a build of unchanged inputs, and of changes to files the build did not read', () => {
    buildServer();
    expect(serverBuildIsCurrent(root, out())).toBe(true);
    write('server/main.test.ts', 'it(2)');
    write('server/unused.ts', 'export {}');
    write('src/main.tsx', 'render(2)');
    expect(serverBuildIsCurrent(root, out())).toBe(true);
  });

  it.each([
    ['a source it read changes', () => write('contract/routes.ts', 'export const API = { a: 1 }')],
    ['a source it read is removed', () => fs.rmSync(path.join(root, 'server/main.ts'))],
    ['the lockfile changes (another version of an imported package)', () => write('package-lock.json', '{"lockfileVersion":3}')],
    ['package.json changes (its imports map)', () => write('package.json', '{"imports":{}}')],
    ['the build is incomplete', () => fs.rmSync(path.join(root, 'dist-server/main.js'))],
  ])('asks for a rebuild when %s', (_what, change) => {
    buildServer();
    change();
    expect(serverBuildIsCurrent(root, out())).toBe(false);
  });

  it('asks for a build when there is none', () => {
    expect(serverBuildIsCurrent(root, out())).toBe(false);
  });
});
