/**
 * The shape of `src/`: data flows one way, so no two folders import each other, directly or through others;
 * every module sits in a folder that says what it is for; no file grows past what a reader can hold.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileCycles, formatCycle } from './support/import-graph.js';

const SRC = path.resolve(import.meta.dirname, '..', 'src');
const MAX_LINES = 350;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : name.endsWith('.ts') ? [full] : [];
  });
}

const FILES = sourceFiles(SRC);
const folderOf = (file: string) => path.relative(SRC, file).split(path.sep)[0] ?? '';

/** Folder → the folders its files import (relative imports only; packages are not folders of src/). */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of FILES) {
    const from = folderOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = path.resolve(path.dirname(file), match[1] ?? '');
      const to = folderOf(target);
      if (to !== from && !to.startsWith('..')) edges.add(to);
    }
  }
  return graph;
}

/** Every cycle of folders, each as the path that closes it (`a → b → a`). */
function cycles(graph: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  const visit = (start: string, node: string, trail: string[]) => {
    for (const next of graph.get(node) ?? []) {
      if (next === start) found.push([...trail, next].join(' → '));
      else if (!trail.includes(next) && next > start) visit(start, next, [...trail, next]);
    }
  };
  for (const start of [...graph.keys()].sort()) visit(start, start, [start]);
  return found;
}

describe('the architecture of src/', () => {
  it('has no cycle between folders, direct or through others', () => {
    expect(cycles(folderGraph())).toEqual([]);
  });

  it('keeps every module in a folder that says what it is for', () => {
    expect(FILES.filter((file) => path.dirname(file) === SRC).map((file) => path.basename(file))).toEqual([]);
  });

  it(`keeps every file at ${MAX_LINES} lines or fewer`, () => {
    const long = FILES.map((file) => [path.relative(SRC, file), readFileSync(file, 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > MAX_LINES + 1)
      .map(([file, lines]) => `${file}: ${lines}`);
    expect(long).toEqual([]);
  });

  it('finds cycles when there are some (the check above can fail)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(cycles(graph)).toEqual(['a → b → c → a']);
  });
});

describe('the architecture of the site (public/)', () => {
  const PUBLIC = path.resolve(import.meta.dirname, '..', 'public');
  const siteFiles = () => [
    path.join(PUBLIC, 'app.js'),
    path.join(PUBLIC, 'vocabulary.js'),
    ...readdirSync(path.join(PUBLIC, 'js'))
      .filter((name) => name.endsWith('.js'))
      .map((name) => path.join(PUBLIC, 'js', name)),
  ];

  it('has no file-level import cycle: app.js wires the modules together, none imports back', () => {
    expect(fileCycles(siteFiles()).map((cycle) => formatCycle(cycle, PUBLIC))).toEqual([]);
  });

  it('finds a planted file-level cycle (the check above can fail)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mts-import-graph-'));
    try {
      const files = {
        'a.ts': "import { b } from './b.js';\nexport const a = b;\n",
        'b.ts': "import type { C } from './c.js';\nexport const b = 1 as unknown as C;\n",
        'c.ts': "export { a } from './a.js';\nexport type C = number;\n",
        'd.js': "import { a } from './a.js';\nimport './d.js';\n",
        'e.js': "import('./d.js');\nimport { x } from 'some-package';\n",
      };
      for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
      const cycles = fileCycles(Object.keys(files).map((name) => path.join(dir, name)));
      expect(cycles.map((cycle) => formatCycle(cycle, dir))).toEqual(['a.ts → b.ts → c.ts → a.ts', 'd.js → d.js']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
