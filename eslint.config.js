// ESLint flat config: typescript-eslint (type-aware) + React hooks + the import boundaries of
// docs/ARCHITECTURE.md, enforced with no-restricted-imports so they also hold for `#src/*` aliases.
import fs from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import boundaries from './eslint/module-boundaries.js';

const features = fs
  .readdirSync('src/features', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

// Regexes, not gitignore globs: in a glob a leading `#` starts a comment, which would silently match nothing.
const serverSide = { regex: '^(#server/|(\\.\\./)+server/)', message: 'The browser never imports server code.' };
const browserSide = { regex: '^(#src/|(\\.\\./)+(src|sw)/)', message: 'The server never imports browser code.' };
// Route files are registered by server/app.ts alone: what another module needs lives in a service.
const routeFile = {
  regex: '\\.routes(\\.ts)?$',
  message: "A route file is registered by server/app.ts only; import the module's service.",
};
const tests = ['**/*.test.{ts,tsx}', 'e2e/**', 'tests/**', 'bench/**', 'server/fuzz/**'];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-server/**',
      'node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'coverage/**',
      'public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js'] }, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Fastify plugins and hooks are async by convention even when they await nothing.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  // The local rules are plain JavaScript over ESLint's untyped AST objects: type-aware rules would only flag `any`.
  { files: ['eslint/**/*.js'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['contract/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(#|\\.\\./)', message: 'contract/ imports nothing of ours.' }] }],
    },
  },
  { files: ['server/**'], rules: { 'no-restricted-imports': ['error', { patterns: [browserSide] }] } },
  { files: ['server/modules/**'], ignores: tests, rules: { 'no-restricted-imports': ['error', { patterns: [browserSide, routeFile] }] } },
  {
    // Boundaries that need resolved paths: no runtime import cycle between files, and a feature (any file in it,
    // the folder's root included) never reaches into another feature.
    files: ['server/**/*.ts', 'src/**/*.{ts,tsx}', 'sw/**/*.ts', 'contract/**/*.ts'],
    plugins: { 'import-x': importX, vitrina: boundaries },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      // The dependency graph is read by import-x's own parser pass: it must parse TypeScript.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: false }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: features.map((feature) => ({
            target: `./src/features/${feature}`,
            from: './src/features',
            except: [`./${feature}`],
            message: 'A feature never imports another feature.',
          })),
        },
      ],
      'vitrina/no-module-cycle': 'error',
    },
  },
  {
    files: ['server/**/*.ts', 'src/**/*.{ts,tsx}', 'sw/**/*.ts'],
    ignores: tests,
    plugins: { vitrina: boundaries },
    rules: { 'vitrina/no-api-path-literal': 'error' },
  },
  {
    files: ['sw/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        // Except the outbox's replay, which Background Sync runs with the page's own code (design guide: Outbox).
        {
          patterns: [
            serverSide,
            {
              regex: '^(#src/(?!offline/)|(\\.\\./)+src/(?!offline/))',
              message: 'The service worker stands alone (src/offline/ excepted).',
            },
          ],
        },
      ],
    },
  },
  { files: ['src/**'], rules: { 'no-restricted-imports': ['error', { patterns: [serverSide] }] } },
  {
    files: ['src/lib/**', 'src/components/**', 'src/offline/**', 'src/realtime/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            serverSide,
            {
              regex: '^(#src/(features|app)/|(\\.\\./)+(features|app)/)',
              message: 'Shared code never depends on features or the app shell.',
            },
          ],
        },
      ],
    },
  },
  ...features.map((feature) => ({
    files: [`src/features/${feature}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            serverSide,
            { regex: '^(#src/app/|(\\.\\./)+app/)', message: 'Features are composed by src/app, never the reverse.' },
            {
              regex: `^(#src/features/(?!${feature}/)|(\\.\\./){2,}(?!${feature}/)[^./][^/]*/)`,
              message: 'A feature never imports another feature.',
            },
          ],
        },
      ],
    },
  })),
  {
    files: tests,
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/unbound-method': 'off' },
  },
);
