/** `npm start` rebuilds only when the build's inputs changed (issue 27 point 4). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildFingerprint, buildIsCurrent, writeStamp } from './build-stamp.ts';

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
