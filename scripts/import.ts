/**
 * `npm run import -- --scores <index.json> --registry <servers.json> [--out data/servers.json]`
 *
 * Joins the MCP Scorecard index with a dump of the official MCP registry into the committed dataset (see
 * data/README.md for the sources and the rules). Run by hand when the inputs change; nothing else in the
 * project reads the inputs. On any error it prints one line starting with `import:` and exits non-zero
 * without touching the output file.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { ImportError, parseInput, RegistryDumpSchema, ScorecardIndexSchema } from '../src/dataset/inputs.js';
import { joinDatasets, serializeDataset, type ImportSummary, type LeftOut } from '../src/dataset/join.js';
import { importRegistryEntries, type RegistryImport, serializeRegistryData } from '../src/dataset/registry.js';
import { DEFAULT_REGISTRY_DATA } from '../src/registry/artifact.js';
import { writeFilesAtomically } from '../src/format/atomic-write.js';
import { runMain } from './lib/main.js';

const USAGE =
  'usage: npm run import -- --scores <index.json> --registry <servers.json> [--registry <more.json> ...] [--out data/servers.json] [--registry-out <dir of --out>/registry/servers.json]';
const DEFAULT_OUT = 'data/servers.json';

/** The text of an input file, or an ImportError that says why it cannot be read. */
function readInput(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new ImportError(`cannot read ${file}: ${reason}`);
  }
}

function report(summary: ImportSummary, out: string): string {
  const top = (counts: Record<string, number>, n: number) =>
    Object.entries(counts)
      .slice(0, n)
      .map(([key, count]) => `${key} ${count}`)
      .join(', ');
  return [
    `wrote ${summary.records} records to ${out}`,
    `  registry entry: ${summary.withRegistryEntry} with, ${summary.withoutRegistryEntry} without` +
      ` (${summary.registryServersNotScored} registry servers are not scored;` +
      ` ${summary.newestByPublishedAt} newest versions chosen by publishedAt)`,
    `  install: repo_url null ${summary.repoUrlNull} (${summary.repoUrlDropped} non-http(s) dropped),` +
      ` version null ${summary.versionNull}`,
    `  registry extras: packages ${summary.withPackages}, remotes ${summary.withRemotes},` +
      ` description ${summary.withDescription}; chosen version published after the scoring run:` +
      ` ${summary.publishedAfterScoring}`,
    `  verified publishers: ${summary.verifiedPublishers}`,
    `  source labels that disagree with the score band: ${summary.labelDisagreements.length}` +
      (summary.labelDisagreements.length > 0 ? ` (${summary.labelDisagreements.slice(0, 5).join(', ')})` : ''),
    `  servers with targets: ${summary.serversWithTargets}; top: ${top(summary.targets, 15)}`,
    `  badges: ${top(summary.badges, Number.POSITIVE_INFINITY)}`,
  ].join('\n');
}

/** Names and reasons are the publishers' text: control characters escaped, length bounded. */
function leftOutReport(leftOut: readonly LeftOut[]): string {
  const safe = (text: string, max: number) => {
    const escaped = JSON.stringify(text).slice(1, -1);
    return escaped.length > max ? `${escaped.slice(0, max)}…` : escaped;
  };
  return [
    `  left out, making no valid record: ${leftOut.length}`,
    ...leftOut.map(({ name, reason }) => `    ${safe(name, 120)}: ${safe(reason, 300)}`),
  ].join('\n');
}

function registryReport(result: RegistryImport, out: string): string {
  return [
    `wrote ${result.entries.length} registry entries to ${out}` +
      ` (${result.missing.length} scored servers have none; ${result.repaired} empty repository objects dropped)`,
    `  left out of the feed, breaking the registry's schema (2025-12-01): ${result.refused.length}`,
    ...result.refused.map(({ name, reason }) => `    ${name}: ${reason}`),
  ].join('\n');
}

function main(argv: string[]): number {
  let values: {
    scores?: string | undefined;
    registry?: string[] | undefined;
    out?: string | undefined;
    'registry-out'?: string | undefined;
  };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        scores: { type: 'string' },
        registry: { type: 'string', multiple: true },
        out: { type: 'string' },
        'registry-out': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`import: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!values.scores || !values.registry || values.registry.length === 0) {
    console.error(`import: --scores and --registry are required\n${USAGE}`);
    return 2;
  }
  const out = values.out ?? DEFAULT_OUT;
  // Beside the dataset it belongs to: data/servers.json → data/registry/servers.json.
  const registryOut =
    values['registry-out'] ?? join(dirname(out), relative(dirname(DEFAULT_OUT), DEFAULT_REGISTRY_DATA));

  try {
    const scorecard = parseInput(readInput(values.scores), values.scores, ScorecardIndexSchema);
    // Every dump given, in order: a server's newest version is chosen across all of them.
    const texts = values.registry.map((file) => ({ file, text: readInput(file) }));
    const registry = texts.flatMap(({ file, text }) => parseInput(text, file, RegistryDumpSchema));
    // The same dumps as they are (zod's output reorders an entry's members), entry for entry.
    const raw = texts.flatMap(({ file, text }) => parseInput(text, file, z.array(z.unknown())));
    const { records, leftOut, summary } = joinDatasets(scorecard, registry);
    const entries = importRegistryEntries(
      records.map((record) => record.name),
      registry,
      raw,
    );
    try {
      // Both files or neither: the dataset and its registry data are read together.
      writeFilesAtomically([
        [out, serializeDataset(records)],
        [registryOut, serializeRegistryData(entries.entries)],
      ]);
    } catch (error) {
      throw new ImportError((error as Error).message);
    }
    console.log(report(summary, out));
    if (leftOut.length > 0) console.log(leftOutReport(leftOut));
    console.log(registryReport(entries, registryOut));
    return 0;
  } catch (error) {
    if (error instanceof ImportError) {
      console.error(`import: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

runMain(() => main(process.argv.slice(2)));
