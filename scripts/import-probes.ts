/**
 * `npx tsx scripts/import-probes.ts --csv <mcpqueen-grades-YYYY-MM-DD.csv> --out data/evidence/probes.json`:
 * MCP Queen's live grades (a public CSV of probes of the registry's remote servers) as dated third-party probe
 * evidence for the servers of `data/servers.json`: only the facts each row observed (reachable, how it asked
 * for authorisation, the tools it listed, the transport, when), never their grade or score. Run by hand;
 * data/README.md names the file and its licence. The tests read only the file it writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { UsageError } from '../src/errors/operator-error.js';
import { type ProbeFile, ProbeFileSchema, type ProbeObservation } from '../src/model/probes.js';
import { runMain } from './lib/main.js';

const USAGE = 'usage: npx tsx scripts/import-probes.ts --csv <file> --out <file> [--dataset data/servers.json]';
const BY = 'MCP Queen (Health AI), Live Grades of the MCP Ecosystem, July 2026 (mcpqueen/mcpqueen, MIT)';

/** RFC 4180 fields of one line (the file has no line breaks inside fields). */
function fields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted && char === '"' && line[i + 1] === '"') {
      field += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (char === ',' && !quoted) {
      out.push(field);
      field = '';
    } else {
      field += char;
    }
  }
  out.push(field);
  return out;
}

const RowSchema = z.object({
  server_name: z.string(),
  reachable: z.enum(['0', '1']),
  auth_state: z.enum(['open', 'auth-wellbehaved', 'auth-bare', 'unreachable']),
  tool_count: z.string(),
  probed_at: z.string(),
  remote_type: z.enum(['streamable-http', 'sse']),
});

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      csv: { type: 'string' },
      out: { type: 'string' },
      dataset: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.csv || !values.out) throw new UsageError(`import-probes: ${USAGE}`);
  const names = new Set(
    z
      .array(z.looseObject({ name: z.string() }))
      .parse(JSON.parse(readFileSync(values.dataset ?? 'data/servers.json', 'utf8')))
      .map((r) => r.name),
  );
  const [header, ...lines] = readFileSync(values.csv, 'utf8').trim().split(/\r?\n/);
  const columns = fields(header ?? '');
  const observations: ProbeObservation[] = [];
  let refused = 0;
  for (const line of lines) {
    const row = RowSchema.safeParse(Object.fromEntries(fields(line).map((value, i) => [columns[i], value])));
    if (!row.success) {
      refused++;
      continue;
    }
    const r = row.data;
    if (!names.has(r.server_name)) continue;
    const reachable = r.reachable === '1' && r.auth_state !== 'unreachable';
    observations.push({
      name: r.server_name,
      reachable,
      auth: !reachable
        ? null
        : r.auth_state === 'open'
          ? 'open'
          : r.auth_state === 'auth-wellbehaved'
            ? 'oauth'
            : 'bare-401',
      tool_count: r.tool_count === '' ? null : Number(r.tool_count),
      transport: r.remote_type,
      probed_at: new Date(r.probed_at).toISOString(),
    });
  }
  observations.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const file: ProbeFile = ProbeFileSchema.parse({ by: BY, third_party: true, observations });
  // One observation a line, so that a new probe's change is one line of the diff.
  const rows = file.observations.map((observation) => `    ${JSON.stringify(observation)}`);
  const head = `{\n  "by": ${JSON.stringify(file.by)},\n  "third_party": ${file.third_party},\n  "observations": [\n`;
  writeFileSync(values.out, `${head}${rows.join(',\n')}\n  ]\n}\n`);
  console.log(`wrote ${values.out}: ${observations.length} servers of the dataset probed (${refused} rows refused)`);
  return 0;
}

runMain(main);
