/**
 * `npx tsx scripts/advisories.ts --malicious <checkout of ossf/malicious-packages> --malicious-commit <sha>
 *   --ghsa <checkout of github/advisory-database> --ghsa-commit <sha> [--out data/evidence/advisories.json]`
 *
 * Regenerates the committed advisory file from local checkouts of both repositories (run by hand; see
 * data/README.md): every OSV record naming an MCP server package (the rule is `SELECTION_RULE` of
 * src/pipeline/osv-advisories.ts). Unreadable or unfitting records are skipped and counted. On an error it
 * prints one line starting with `advisories:` and leaves the output file as it was.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { AdvisoryFileSchema, type Advisory } from '../src/model/advisories.js';
import { mergeAdvisories, OsvRecordSchema, SELECTION_RULE, toAdvisory } from '../src/pipeline/osv-advisories.js';

const MALICIOUS_ECOSYSTEMS = ['npm', 'pypi', 'crates-io', 'nuget'];

/** Every file under `folder` whose name matches, depth first, in name order (a generator: the trees are large). */
function* filesUnder(folder: string, name: RegExp): Generator<string> {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path, name);
    else if (name.test(entry.name)) yield path;
  }
}

function collect(paths: Iterable<string>, url: (id: string) => string, counts: { read: number; skipped: number }) {
  const kept: Advisory[] = [];
  for (const path of paths) {
    counts.read++;
    let record;
    try {
      record = OsvRecordSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
    } catch {
      counts.skipped++;
      continue;
    }
    const advisory = toAdvisory(record, url(record.id));
    if (advisory) kept.push(advisory);
  }
  return kept;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      malicious: { type: 'string' },
      'malicious-commit': { type: 'string' },
      ghsa: { type: 'string' },
      'ghsa-commit': { type: 'string' },
      out: { type: 'string', default: 'data/evidence/advisories.json' },
      'generated-at': { type: 'string' },
    },
  });
  const { malicious, ghsa } = values;
  const maliciousCommit = values['malicious-commit'];
  const ghsaCommit = values['ghsa-commit'];
  if (!malicious || !ghsa || !maliciousCommit || !ghsaCommit) {
    throw new Error('--malicious, --malicious-commit, --ghsa and --ghsa-commit are all needed');
  }
  const counts = { read: 0, skipped: 0 };
  const fromMalicious = collect(
    MALICIOUS_ECOSYSTEMS.flatMap((ecosystem) => [
      ...filesUnder(join(malicious, 'osv', 'malicious', ecosystem), /^MAL-[0-9]{4}-[0-9]+\.json$/),
    ]),
    (id) => `https://osv.dev/vulnerability/${id}`,
    counts,
  );
  const fromGhsa = collect(
    filesUnder(join(ghsa, 'advisories', 'github-reviewed'), /^GHSA-.*\.json$/),
    (id) => `https://github.com/advisories/${id}`,
    counts,
  );
  const file = AdvisoryFileSchema.parse({
    generated_at: values['generated-at'] ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    selection: SELECTION_RULE,
    sources: [
      {
        name: 'OpenSSF malicious packages',
        repository: 'https://github.com/ossf/malicious-packages',
        commit: maliciousCommit,
        licence: 'Apache-2.0',
      },
      {
        name: 'GitHub Advisory Database (reviewed)',
        repository: 'https://github.com/github/advisory-database',
        commit: ghsaCommit,
        licence: 'CC-BY-4.0',
      },
    ],
    advisories: mergeAdvisories([fromMalicious, fromGhsa]),
  });
  const text = `${JSON.stringify(file, null, 1)}\n`;
  mkdirSync(dirname(values.out), { recursive: true });
  const temporary = `${values.out}.tmp-${process.pid}`;
  writeFileSync(temporary, text);
  renameSync(temporary, values.out);
  console.log(
    `advisories: ${file.advisories.length} advisories (${fromMalicious.length} malicious-package records, ${fromGhsa.length} GitHub advisories) from ${counts.read} OSV files read (${counts.skipped} unreadable) into ${values.out}`,
  );
}

try {
  main();
} catch (error) {
  console.error(`advisories: ${(error as Error).message.split('\n')[0]}`);
  process.exitCode = 1;
}
