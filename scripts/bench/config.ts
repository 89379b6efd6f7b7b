/**
 * `npx tsx scripts/bench/config.ts`: how the CLI's reading of a configuration file grows with its number of
 * entries (issue 32, point 7: each entry's line was found by rescanning the file, so 40,000 entries took
 * 40 s). Parses files of 4,000 and 40,000 `mcpServers` entries, the median of 5 runs each, and prints the
 * time per entry of both: linear reading keeps them alike, a rescan per entry makes the larger ten times
 * slower per entry.
 */
import { parseConfigFile } from '../../src/cli/config-files.js';
import { runMain } from '../lib/main.js';

function configOf(count: number): string {
  const lines = ['{', '  "mcpServers": {'];
  for (let i = 0; i < count; i++) {
    lines.push(`    "server-${i}": { "command": "npx", "args": ["-y", "pkg-${i}"] }${i < count - 1 ? ',' : ''}`);
  }
  lines.push('  }', '}');
  return lines.join('\n');
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function main(): void {
  const rows: { entries: number; bytes: number; ms: number; perEntryUs: number }[] = [];
  for (const entries of [4_000, 40_000]) {
    const text = configOf(entries);
    const times: number[] = [];
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      const parsed = parseConfigFile('.mcp.json', text);
      times.push(performance.now() - started);
      if (parsed.length !== entries) throw new Error(`parsed ${parsed.length} entries of ${entries}`);
    }
    const ms = median(times);
    rows.push({
      entries,
      bytes: Buffer.byteLength(text),
      ms: Math.round(ms),
      perEntryUs: Math.round((ms * 1000) / entries),
    });
  }
  console.table(rows);
  const growth = rows[1]!.perEntryUs / rows[0]!.perEntryUs;
  console.log(
    `time per entry at 40,000 entries / at 4,000: ${growth.toFixed(2)} (1 is linear, 10 is a rescan per entry)`,
  );
}

runMain(main);
