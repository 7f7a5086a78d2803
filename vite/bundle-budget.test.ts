/** The home route's JS budget (issue 27 point 1): what is counted, and that a build over it fails the check. */
import { describe, expect, it } from 'vitest';
import { homeBundle, overBudget, readBudget, type Manifest } from './bundle-budget.ts';

const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_runtime.js'],
    dynamicImports: ['node_modules/react-dom/client.js', 'src/home.tsx', 'src/admin.tsx'],
    css: ['assets/index.css'],
  },
  '_runtime.js': { file: 'assets/runtime.js' },
  'node_modules/react-dom/client.js': { file: 'assets/client.js', imports: ['_runtime.js'] },
  'src/home.tsx': { file: 'assets/home.js', imports: ['_card.js', '_runtime.js'], css: ['assets/home.css'] },
  '_card.js': { file: 'assets/card.js', css: ['assets/card.css'] },
  // Another screen: never part of the home's first visit.
  'src/admin.tsx': { file: 'assets/admin.js', imports: ['_table.js'] },
  '_table.js': { file: 'assets/table.js' },
};
const sizes: Record<string, number> = {
  'assets/index.js': 80_000,
  'assets/runtime.js': 500,
  'assets/client.js': 60_000,
  'assets/home.js': 7_000,
  'assets/card.js': 1_000,
  'assets/admin.js': 50_000,
  'assets/table.js': 9_000,
  'assets/index.css': 19_000,
  'assets/home.css': 1_000,
  'assets/card.css': 300,
};
const size = (file: string) => ({ raw: sizes[file]! * 3, gzip: sizes[file]! });
const budget = { startup: ['node_modules/react-dom/client.js'], route: 'src/home.tsx' };

describe("the home route's bundle", () => {
  it('counts the entry, its imports, the start-up chunks and the home screen once each, and no other screen', () => {
    const measured = homeBundle(manifest, budget, size);
    expect(measured.files.map((f) => [f.file, f.role])).toEqual([
      ['assets/index.js', 'entry'],
      ['assets/runtime.js', 'entry import'],
      ['assets/client.js', 'start-up'],
      ['assets/home.js', 'home route'],
      ['assets/card.js', 'home import'],
      ['assets/index.css', 'css'],
      ['assets/home.css', 'css'],
      ['assets/card.css', 'css'],
    ]);
    expect(measured.js).toBe(80_000 + 500 + 60_000 + 7_000 + 1_000);
    expect(measured.css).toBe(19_000 + 1_000 + 300);
  });

  it('fails a build over the budget, naming what is over', () => {
    const measured = homeBundle(manifest, budget, size);
    expect(overBudget(measured, { homeJsGzip: 148_500, homeCssGzip: 20_300 })).toEqual([]);
    expect(overBudget(measured, { homeJsGzip: 148_499, homeCssGzip: 20_300 })).toEqual([
      "the home route's JS is 148.5 KB gzipped, over its budget of 148.5 KB",
    ]);
    expect(overBudget(measured, { homeJsGzip: 150_000, homeCssGzip: 20_000 })).toHaveLength(1);
  });

  it('refuses a budget that names a module the build does not have (a renamed screen must not silently count nothing)', () => {
    expect(() => homeBundle(manifest, { startup: ['src/gone.ts'], route: 'src/home.tsx' }, size)).toThrow(/src\/gone\.ts/);
  });

  it('has a budget file with both ceilings and the home screen', () => {
    const real = readBudget();
    expect(real.homeJsGzip).toBeGreaterThan(0);
    expect(real.homeCssGzip).toBeGreaterThan(0);
    expect(real.route).toBe('src/features/listings/routes/home.tsx');
  });
});
