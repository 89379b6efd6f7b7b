/**
 * File-level import cycles, for the architecture test: which files of a set import which (relative imports
 * only), and every cycle among them. Written for any folder of ES modules: TypeScript whose imports name the
 * compiled `.js` file (`src/`), and plain browser JavaScript (`public/js/`).
 *
 * An import is any `import … from '<relative>'`, `export … from '<relative>'`, side-effect `import '<relative>'`
 * or `import('<relative>')`, type-only imports included: a type import is still a dependency a reader must
 * follow, and a cycle through one is as hard to read as any other.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A file → the files of the set it imports. */
export type ImportGraph = Map<string, Set<string>>;

const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*(['"])(\.{1,2}\/[^'"]+)\1/g;

/** The files of `known` a specifier names: itself, or the `.ts` file a `.js` specifier stands for, or an index. */
function resolve(fromFile: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  const target = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [
    target,
    target.replace(/\.js$/, '.ts'),
    target.replace(/\.mjs$/, '.mts'),
    `${target}.ts`,
    `${target}.js`,
    path.join(target, 'index.ts'),
    path.join(target, 'index.js'),
  ];
  return candidates.find((candidate) => known.has(candidate));
}

/** The import graph of `files` (absolute paths): imports of files outside the set are left out. */
export function importGraph(
  files: readonly string[],
  read = (file: string) => readFileSync(file, 'utf8'),
): ImportGraph {
  const known = new Set(files.map((file) => path.resolve(file)));
  const graph: ImportGraph = new Map();
  for (const file of known) {
    const edges = new Set<string>();
    for (const match of read(file).matchAll(RELATIVE_IMPORT)) {
      const target = resolve(file, match[2] ?? '', known);
      if (target !== undefined) edges.add(target);
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Enough cycles to say what is wrong; a tangled graph can hold exponentially many, so the walk stops there. */
const MAX_CYCLES = 200;

/** The strongly connected components of `graph` (Tarjan): node → its component's number. */
function components(graph: ImportGraph): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const component = new Map<string, number>();
  const stack: string[] = [];
  let counter = 0;
  let count = 0;
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (!component.has(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      component.set(member, count);
      if (member === node) break;
    }
    count += 1;
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return component;
}

/**
 * Every elementary cycle of `graph` (up to `limit`), each as the closed path of its nodes (`[a, b, c, a]`),
 * starting at its smallest node. A cycle is found once, from its smallest node, by walking only through larger
 * nodes of its own strongly connected component, so the acyclic rest of the graph costs nothing.
 */
export function graphCycles(graph: ImportGraph, limit = MAX_CYCLES): string[][] {
  const component = components(graph);
  const found: string[][] = [];
  const visit = (start: string, node: string, trail: string[]) => {
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (found.length >= limit) return;
      if (next === start) found.push([...trail, next]);
      else if (next > start && component.get(next) === component.get(start) && !trail.includes(next))
        visit(start, next, [...trail, next]);
    }
  };
  for (const start of [...graph.keys()].sort()) visit(start, start, [start]);
  return found;
}

/** Every file-level import cycle among `files` (absolute paths), each as the closed path of its files. */
export function fileCycles(files: readonly string[], read?: (file: string) => string): string[][] {
  return graphCycles(importGraph(files, read));
}

/** A cycle for a test's message: `a.js → b.js → a.js`, paths relative to `root`. */
export const formatCycle = (cycle: readonly string[], root: string): string =>
  cycle.map((file) => path.relative(root, file)).join(' → ');
