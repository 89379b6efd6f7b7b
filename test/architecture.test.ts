/**
 * The shape of `src/`: data flows one way, so no two folders import each other, directly or through others,
 * and no two files either; a folder's name says when its code runs, so nothing a server loads imports the
 * build's folder; no file grows past what a reader can hold; comments cite files that exist and leave
 * measured figures to docs/performance.md.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fg from 'fast-glob';
import { E2E_TESTS } from '../vitest.config.js';
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

/**
 * Which folders a folder may not import, by lifetime: the artifact formats sit below everything (they import
 * only the model, and the operator-error convention every lifetime shares); the build reads the snapshot it
 * replaces with its own code, not the server's loader; the package's checker, MCP server and clients never
 * load the gateway, the HTTP adapters or the service's configuration.
 */
const LAYER_RULES: ReadonlyArray<{
  folders: readonly string[];
  mayImport?: readonly string[];
  mayNotImport?: readonly string[];
}> = [
  { folders: ['format'], mayImport: ['model', 'errors'] },
  { folders: ['snapshot-build'], mayNotImport: ['query', 'gateway', 'http', 'service'] },
  { folders: ['cli', 'mcp', 'client'], mayNotImport: ['gateway', 'http', 'service'] },
];

/** Every import that breaks a layer rule, as `from → to`. */
function layerBreaks(graph: Map<string, Set<string>>): string[] {
  const breaks: string[] = [];
  for (const rule of LAYER_RULES) {
    for (const from of rule.folders) {
      for (const to of graph.get(from) ?? []) {
        const allowed = rule.mayImport ? rule.mayImport.includes(to) : !rule.mayNotImport?.includes(to);
        if (!allowed) breaks.push(`${from} → ${to}`);
      }
    }
  }
  return breaks.sort();
}

describe('the lifetimes of the folders of src/', () => {
  it('keeps the formats below everything, the build off the loader, and the package off the gateway', () => {
    expect(layerBreaks(folderGraph())).toEqual([]);
  });

  it('finds imports across a layer (the check above can fail)', () => {
    const graph = new Map([
      ['format', new Set(['model', 'registry'])],
      ['snapshot-build', new Set(['format', 'query'])],
      ['client', new Set(['api', 'gateway'])],
      ['mcp', new Set(['client'])],
    ]);
    expect(layerBreaks(graph)).toEqual(['client → gateway', 'format → registry', 'snapshot-build → query']);
  });
});

const ROOT = path.resolve(SRC, '..');
const relative = (file: string) => path.relative(ROOT, file);

/** The one module that calls a route's handler and computes its answer, for the gateway and the offline client. */
const ANSWER_PATH = path.join(SRC, 'api', 'answer.ts');
/** The live client: it reads the API's HTTP responses, which are JSON text by nature. */
const LIVE_CLIENT = path.join(SRC, 'client', 'client.ts');

/**
 * Every way out of the one answer path, as `file: what`: a route's handler called, or a cached answer computed,
 * anywhere but in `src/api/answer.ts` (so the gateway and the offline client cannot answer two ways); and, in
 * the package (`cli/`, `mcp/`, `client/`), an answer read back from JSON text: the engine's text or the
 * envelope's meta text, or any JSON parsed by the offline client (the live client apart).
 */
function answerPathBreaks(files: readonly string[], read = (file: string) => readFileSync(file, 'utf8')): string[] {
  const breaks: string[] = [];
  for (const file of files) {
    const text = read(file);
    const folder = folderOf(file);
    if (file !== ANSWER_PATH && /\.handler\(/.test(text)) breaks.push(`${relative(file)}: calls a route's handler`);
    if (file !== ANSWER_PATH && /\.compute\(\)/.test(text)) breaks.push(`${relative(file)}: computes an answer`);
    if (!['cli', 'mcp', 'client'].includes(folder)) continue;
    if (/\bmetaTail\b|\.\w+Json\(/.test(text)) breaks.push(`${relative(file)}: reads an answer's JSON text`);
    if (folder === 'client' && file !== LIVE_CLIENT && /JSON\.parse\(/.test(text))
      breaks.push(`${relative(file)}: parses JSON`);
  }
  return breaks.sort();
}

describe('the one answer path (src/api/answer.ts)', () => {
  it('is the only caller of route handlers, for the gateway and the offline client alike, and the package reads no answer back from text', () => {
    expect(answerPathBreaks(FILES)).toEqual([]);
  });

  it('finds an answer made or read another way (the check above can fail)', () => {
    const texts = new Map([
      [ANSWER_PATH, 'const answer = await route.handler(context);\nconst computed = answer.compute();\n'],
      [path.join(SRC, 'gateway', 'gateway.ts'), 'const computed = answer.compute();\n'],
      [
        path.join(SRC, 'client', 'embedded.ts'),
        'const answer = await route.handler(context);\nconst meta = JSON.parse(`{${computed.metaTail}}`);\n',
      ],
      [path.join(SRC, 'mcp', 'tools.ts'), 'const record = JSON.parse(engine.recordJson(id));\n'],
      [LIVE_CLIENT, 'body = JSON.parse(text);\n'],
      [path.join(SRC, 'cli', 'client-formats.ts'), 'const value: unknown = JSON.parse(json);\n'],
    ]);
    expect(answerPathBreaks([...texts.keys()], (file) => texts.get(file) ?? '')).toEqual([
      "src/client/embedded.ts: calls a route's handler",
      'src/client/embedded.ts: parses JSON',
      "src/client/embedded.ts: reads an answer's JSON text",
      'src/gateway/gateway.ts: computes an answer',
      "src/mcp/tools.ts: reads an answer's JSON text",
    ]);
  });
});

/** The files of `src/` that import a file of `src/snapshot-build/` (the build and its scripts may; nothing else). */
function importersOfBuild(files: readonly string[], read = (file: string) => readFileSync(file, 'utf8')): string[] {
  const build = path.join(SRC, 'snapshot-build') + path.sep;
  return files
    .filter((file) => !file.startsWith(build))
    .filter((file) =>
      [...read(file).matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].some((match) =>
        path.resolve(path.dirname(file), match[1] ?? '').startsWith(build),
      ),
    )
    .map(relative);
}

/** A repository path a comment or a document cites: `src/query/load.ts`, `docs/api.md`, ... */
const CITED_PATH = /(?<![\w./-])((?:src|docs|test|scripts|public|api)\/[\w./\-[\]]*\.(?:ts|md|js|mjs|json))\b/g;
/** A file named alone in backquotes in a module's comment: `record-file.ts`. */
const CITED_NAME = /`([\w.-]+\.(?:ts|mjs))`/g;
const COMMENT_LINE = /^\s*(?:\/\*\*|\*|\/\/)/;

/** Every cited path or file name that names no file of the repository, as `file: citation`. */
function missingCitations(files: readonly string[], exists: (cited: string) => boolean, names: ReadonlySet<string>) {
  const missing: string[] = [];
  for (const file of files) {
    const source = file.endsWith('.ts');
    const lines = readFileSync(file, 'utf8').split('\n');
    for (const line of source ? lines.filter((text) => COMMENT_LINE.test(text)) : lines) {
      for (const match of line.matchAll(CITED_PATH))
        if (!exists(match[1]!)) missing.push(`${relative(file)}: ${match[1]}`);
      if (source)
        for (const match of line.matchAll(CITED_NAME))
          if (!names.has(match[1]!)) missing.push(`${relative(file)}: ${match[1]}`);
    }
  }
  return missing;
}

/**
 * A comment stating a measurement: a duration or a size something was measured to take ("about 30 ms",
 * "took 600 MB", "costs 8 µs"). Bounds and settings ("a 10 s timeout", "at most 64 KB") are not measurements.
 */
const MEASURED_FIGURE =
  /\b(?:about|took|takes|taking|costs?|costing) ~?[0-9][0-9,.]* ?(?:ms|µs|ns|s|seconds?|milliseconds?|KB|MB|GB|KiB|MiB|GiB)\b/;

describe('the lifetimes of src/ and the comments in it', () => {
  it('has no file-level import cycle in src/', () => {
    expect(fileCycles(FILES).map((cycle) => formatCycle(cycle, SRC))).toEqual([]);
  });

  it('keeps the build folder out of everything a server loads', () => {
    expect(importersOfBuild(FILES)).toEqual([]);
  });

  it('finds a serving-side import of the build folder (the check above can fail)', () => {
    const server = path.join(SRC, 'query', 'planted.ts');
    const builder = path.join(SRC, 'snapshot-build', 'planted.ts');
    const texts = new Map([
      [server, "import { writeSnapshot } from '../snapshot-build/build.js';\n"],
      [builder, "import { loadSnapshot } from '../query/open.js';\n"],
    ]);
    expect(importersOfBuild([server, builder], (file) => texts.get(file) ?? '')).toEqual(['src/query/planted.ts']);
  });

  it('cites only files that exist, in the comments of src/, scripts/ and api/ and in README and docs/', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
    const files = tracked
      .filter((file) => /^(src|scripts|api)\/.*\.ts$|^docs\/.*\.md$|^README\.md$/.test(file))
      .map((file) => path.join(ROOT, file))
      .filter((file) => existsSync(file));
    const names = new Set(tracked.map((file) => path.basename(file)));
    const exists = (cited: string) => existsSync(path.join(ROOT, cited));
    expect(missingCitations(files, exists, names)).toEqual([]);
  });

  it('finds a citation of a missing file (the check above can fail)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mts-citations-'));
    try {
      const file = path.join(dir, 'module.ts');
      writeFileSync(
        file,
        "/** Reads (`src/query/load.ts`), see `gone.ts` and docs/nowhere.md. */\nconst x = 'src/no.ts';\n",
      );
      const exists = (cited: string) => cited === 'src/query/load.ts';
      expect(missingCitations([file], exists, new Set(['load.ts'])).map((line) => line.replace(/^.*: /, ''))).toEqual([
        'docs/nowhere.md',
        'gone.ts',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('states no measured figure in a comment under src/ (figures live in docs/performance.md)', () => {
    const figures = FILES.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, index) => [line, index + 1] as const)
        .filter(([line]) => COMMENT_LINE.test(line) && MEASURED_FIGURE.test(line))
        .map(([line, number]) => `${relative(file)}:${number}: ${line.trim()}`),
    );
    expect(figures).toEqual([]);
    expect(MEASURED_FIGURE.test(' * the walk takes about 30 ms at 100,000 names')).toBe(true);
    expect(MEASURED_FIGURE.test(' * a 10 s timeout, at most 64 KB')).toBe(false);
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

/**
 * What makes a test end-to-end: it runs the compiled entry points (dist/), the bin, or the snapshot shipped in
 * the package, which only the e2e project's global setup compiles and builds. A unit test that reached for
 * them would run a stale build in a one-file run, or none at all on a fresh clone.
 */
const REACHES_FOR_BUILT_FILES = [
  /\bstartServer\(/,
  /bin\/mcp-trust-score|'bin', 'mcp-trust-score/,
  /openEmbeddedSource|embedded-snapshot/,
  /['"/]dist\/[a-z-]+\.mjs|REPO(?:_ROOT)?, 'dist'/,
  // The rescoring as the night runs it: dist/rescore/rescore.mjs (test/support/rescore-run.ts).
  /\brunRescore\(/,
];

/** The test files, relative to the root, that reach for built files but are not in the e2e project. */
function unitTestsReachingForBuiltFiles(files: readonly string[], read: (file: string) => string): string[] {
  const e2e = E2E_TESTS.map(globPattern);
  const inE2e = (file: string) => e2e.some((pattern) => pattern.test(file));
  return files.filter((file) => !inE2e(file) && REACHES_FOR_BUILT_FILES.some((pattern) => pattern.test(read(file))));
}

/** The globs of the vitest config (`**` for any folders, `*` within a name) as patterns over relative paths. */
function globPattern(glob: string): RegExp {
  const source = glob
    .split('/')
    .map((part) =>
      part === '**' ? '(?:[^/]+/)*' : `${part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}/`,
    )
    .join('')
    .replace(/\/$/, '');
  return new RegExp(`^${source}$`);
}

describe('the two test projects', () => {
  it('keeps every test that runs dist/, the bin or the shipped snapshot in the e2e project', () => {
    // This file's own planted cases below are texts, not tests that start anything.
    const tests = fg.sync(['test/**/*.test.ts', 'src/**/*.test.ts'], {
      cwd: ROOT,
      ignore: ['test/architecture.test.ts'],
    });
    expect(unitTestsReachingForBuiltFiles(tests, (file) => readFileSync(path.join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it('finds a unit test that starts the compiled server (the check above can fail)', () => {
    const texts = new Map([
      ['test/gateway/planted.test.ts', "const server = await startServer({ API_KEYS: 'k' });\n"],
      ['test/e2e/planted.test.ts', "const server = await startServer({ API_KEYS: 'k' });\n"],
      ['test/query/planted.test.ts', 'const source = await openEmbeddedSource();\n'],
      ['test/format/planted.test.ts', "import { Ajv2020 } from 'ajv/dist/2020.js';\n"],
      ['test/pipeline/planted.test.ts', "const run = await runRescore(['--help']);\n"],
      ['test/pipeline/planted.e2e.test.ts', "const run = await runRescore(['--help']);\n"],
    ]);
    expect(unitTestsReachingForBuiltFiles([...texts.keys()], (file) => texts.get(file) ?? '')).toEqual([
      'test/gateway/planted.test.ts',
      'test/query/planted.test.ts',
      'test/pipeline/planted.test.ts',
    ]);
  });
});

const SCRIPTS = path.join(ROOT, 'scripts');

/**
 * The scripts that end without the one runner (`scripts/lib/main.ts`): a script is run as a command when no
 * other script imports it or when it checks `process.argv[1]` to know it was; each such one must hand its
 * main to `runMain`, so an operator's mistake ends as one line and an exit code, never three different ways.
 */
function scriptsWithoutRunner(files: readonly string[], read = (file: string) => readFileSync(file, 'utf8')) {
  const imported = new Set<string>();
  for (const file of files)
    for (const match of read(file).matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)\.js'/g))
      imported.add(path.resolve(path.dirname(file), `${match[1]}.ts`));
  return files
    .filter((file) => !imported.has(file) || read(file).includes('process.argv[1]'))
    .filter(
      (file) =>
        !/\brunMain\((?!main: )/.test(read(file)) || /\bmain\(\)\.catch\(|process\.exitCode = await/.test(read(file)),
    )
    .map(relative);
}

describe('the scripts', () => {
  const scripts = fg
    .sync(['scripts/**/*.ts', '!scripts/lib/**', '!scripts/bench/lib/**'], { cwd: ROOT, absolute: true })
    .sort();

  it('end every command through the one runner (scripts/lib/main.ts)', () => {
    expect(scripts.length).toBeGreaterThan(20);
    expect(scriptsWithoutRunner(scripts)).toEqual([]);
  });

  it('finds a command that ends its own way (the check above can fail)', () => {
    const texts = new Map([
      [path.join(SCRIPTS, 'own.ts'), 'async function main() {}\nmain().catch(() => process.exit(1));\n'],
      [path.join(SCRIPTS, 'ran.ts'), "import { runMain } from './lib/main.js';\nrunMain(main);\n"],
      [path.join(SCRIPTS, 'bench', 'part.ts'), "import { x } from '../ran.js';\nexport const y = 1;\n"],
      [path.join(SCRIPTS, 'bench', 'index.ts'), "import { y } from './part.js';\nawait main();\n"],
    ]);
    expect(scriptsWithoutRunner([...texts.keys()], (file) => texts.get(file) ?? '')).toEqual([
      'scripts/own.ts',
      'scripts/bench/index.ts',
    ]);
  });

  it('keeps the benchmarks and the soak under scripts/bench/, the shipped commands in scripts/', () => {
    expect(scripts.map(relative).filter((file) => /^scripts\/[^/]*(?:bench|soak)[^/]*\.ts$/.test(file))).toEqual([]);
  });
});

/** The folders a table of README.md does not list: each `name/` of `folders` must appear as `| \`name/\``. */
function foldersMissingFromTable(readme: string, folders: readonly string[]): string[] {
  const rows = readme.split('\n').filter((line) => line.startsWith('|'));
  return folders.filter((folder) => !rows.some((row) => row.includes(`\`${folder}/\``)));
}

describe('the README', () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

  it('lists every folder of src/ and every committed top-level folder in its table', () => {
    const top = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file.includes('/'))
      .map((file) => file.slice(0, file.indexOf('/')));
    const sub = readdirSync(SRC).filter((name) => statSync(path.join(SRC, name)).isDirectory());
    expect(foldersMissingFromTable(readme, [...new Set(top)].sort())).toEqual([]);
    expect(
      foldersMissingFromTable(
        readme,
        sub.map((name) => `src/${name}`),
      ),
    ).toEqual([]);
  });

  it('finds a folder missing from the table (the check above can fail)', () => {
    const table = '| Folder | What |\n| --- | --- |\n| `src/model/` | the record |\n\n`src/query/` in prose\n';
    expect(foldersMissingFromTable(table, ['src/model', 'src/query'])).toEqual(['src/query']);
  });

  it('fits in two screens', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(110);
  });
});

/** Schema names exported by more than one file: one name, one shape (the upstream and the served entry apart). */
function schemasExportedTwice(files: readonly string[], read = (file: string) => readFileSync(file, 'utf8')) {
  const owners = new Map<string, string[]>();
  for (const file of files)
    for (const match of read(file).matchAll(/^export const (\w+Schema)\b/gm))
      owners.set(match[1]!, [...(owners.get(match[1]!) ?? []), relative(file)]);
  return [...owners].filter(([, where]) => where.length > 1).map(([name, where]) => `${name}: ${where.join(', ')}`);
}

/** The registry's entry, read loosely (the importer and the pipeline) and served strictly: its two schemas. */
const REGISTRY_SCHEMAS = ['upstream.ts', 'schema.ts'].map((name) => path.join(SRC, 'registry', name));

/**
 * The files that describe the upstream registry's entry with a schema of their own, besides its two: a
 * server's packages and remotes (`registryType` beside `remotes`), or the official registry's metadata of
 * an entry (its `_meta` key). This service's own record (`registry_type`) is not the registry's entry.
 */
function registryEntryCopies(files: readonly string[], read = (file: string) => readFileSync(file, 'utf8')) {
  return files
    .filter((file) => !REGISTRY_SCHEMAS.includes(file))
    .filter((file) => {
      const text = read(file);
      const server = /\bregistryType: z\./.test(text) && /\bremotes: z\./.test(text);
      return server || /(?:\[OFFICIAL_META_KEY\]|'io\.modelcontextprotocol\.registry\/official'): z\./.test(text);
    })
    .map(relative);
}

describe('the schemas of src/', () => {
  it('exports each schema name from one file only', () => {
    expect(schemasExportedTwice(FILES)).toEqual([]);
  });

  it('reads the upstream registry entry with one schema, beside the one it serves (src/registry/)', () => {
    expect(registryEntryCopies(FILES)).toEqual([]);
  });

  it('finds another schema of the registry entry (the check above can fail)', () => {
    const texts = new Map([
      [
        path.join(SRC, 'scoring', 'facts.ts'),
        'packages: z.array(z.looseObject({ registryType: z.string() })),\nremotes: z.array(z.looseObject({})),\n',
      ],
      [path.join(SRC, 'pipeline', 'collect.ts'), '_meta: z.looseObject({ [OFFICIAL_META_KEY]: z.looseObject({}) }),\n'],
      [
        path.join(SRC, 'dataset', 'inputs.ts'),
        "_meta: z.object({ 'io.modelcontextprotocol.registry/official': z.object({}) }),\n",
      ],
      [path.join(SRC, 'model', 'record-schema.ts'), 'remotes: z.array(RemoteRefSchema),\nregistry_type: z.string(),\n'],
      [
        REGISTRY_SCHEMAS[0]!,
        'registryType: z.string(),\nremotes: z.array(z.unknown()),\n[OFFICIAL_META_KEY]: z.looseObject({}),\n',
      ],
    ]);
    expect(registryEntryCopies([...texts.keys()], (file) => texts.get(file) ?? '')).toEqual([
      'src/scoring/facts.ts',
      'src/pipeline/collect.ts',
      'src/dataset/inputs.ts',
    ]);
  });

  it('finds a schema name exported twice (the check above can fail)', () => {
    const a = path.join(SRC, 'dataset', 'inputs.ts');
    const b = path.join(SRC, 'registry', 'schema.ts');
    const text = 'export const RegistryEntrySchema = z.object({});\n';
    expect(schemasExportedTwice([a, b], () => text)).toEqual([
      'RegistryEntrySchema: src/dataset/inputs.ts, src/registry/schema.ts',
    ]);
  });
});
