// Local ESLint rules for the boundaries docs/ARCHITECTURE.md draws that no published rule expresses:
// - `no-module-cycle`: server modules (server/modules/<name>/) form a graph without cycles, counting runtime imports
//   only (`import type` is erased). A file-level cycle rule (import-x/no-cycle) cannot see this: two modules can
//   import each other through different files without any file cycle.
// - `no-api-path-literal`: an `'/api/…'` path is written once, in contract/routes.ts (issue 26).
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const modulesDir = path.join(root, 'server', 'modules');
const IMPORT_RE = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

/** The module a file belongs to, or null when it is outside server/modules. */
function moduleOf(file) {
  const rel = path.relative(modulesDir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep)[0] ?? null;
}

function resolveSpecifier(fromFile, spec) {
  if (spec.startsWith('#server/')) return path.join(root, 'server', spec.slice('#server/'.length));
  if (spec.startsWith('.')) return path.resolve(path.dirname(fromFile), spec);
  return null;
}

function walk(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** Runtime edges between modules, with one file that makes each edge (for the message). Built once per lint run. */
let graph = null;
function moduleGraph() {
  if (graph) return graph;
  graph = new Map();
  for (const file of walk(modulesDir)) {
    const from = moduleOf(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT_RE)) {
      const target = resolveSpecifier(file, m[1]);
      const to = target && moduleOf(target);
      if (!from || !to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from).has(to)) graph.get(from).set(to, path.relative(root, file));
    }
  }
  return graph;
}

/** A path of modules from `start` back to `goal`, if one exists. */
function pathBetween(start, goal) {
  const g = moduleGraph();
  const seen = new Set([start]);
  const queue = [[start]];
  while (queue.length) {
    const trail = queue.shift();
    const last = trail[trail.length - 1];
    if (last === goal) return trail;
    for (const next of g.get(last)?.keys() ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push([...trail, next]);
    }
  }
  return null;
}

const noModuleCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Server modules import each other without cycles (runtime imports).' },
    schema: [],
    messages: { cycle: 'Module cycle: {{chain}}. Move the shared piece into one module (or server/lib) so one direction remains.' },
  },
  create(context) {
    const file = context.filename;
    const from = moduleOf(file);
    if (!from || /\.test\.tsx?$/.test(file)) return {};
    const check = (node, source, isType) => {
      if (isType || typeof source !== 'string') return;
      const target = resolveSpecifier(file, source);
      const to = target && moduleOf(target);
      if (!to || to === from) return;
      const back = pathBetween(to, from);
      if (back) context.report({ node, messageId: 'cycle', data: { chain: [from, ...back].join(' → ') } });
    };
    return {
      ImportDeclaration: (node) =>
        check(
          node,
          node.source.value,
          node.importKind === 'type' || (node.specifiers.every((s) => s.importKind === 'type') && node.specifiers.length > 0),
        ),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, node.exportKind === 'type'),
      ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === 'type'),
    };
  },
};

const API_LITERAL = /^\/api\//;
const noApiPathLiteral = {
  meta: {
    type: 'problem',
    docs: { description: "An '/api/…' path is defined once, in contract/routes.ts." },
    schema: [],
    messages: { literal: "Use the path from contract/routes.ts (API.…) instead of an '/api/…' literal." },
  },
  create(context) {
    return {
      Literal: (node) => {
        if (typeof node.value === 'string' && API_LITERAL.test(node.value)) context.report({ node, messageId: 'literal' });
      },
      TemplateLiteral: (node) => {
        const head = node.quasis[0]?.value.cooked ?? '';
        if (API_LITERAL.test(head)) context.report({ node, messageId: 'literal' });
      },
    };
  },
};

export default { rules: { 'no-module-cycle': noModuleCycle, 'no-api-path-literal': noApiPathLiteral } };
