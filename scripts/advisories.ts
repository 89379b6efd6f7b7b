/**
 * `npx tsx scripts/advisories.ts --out data/evidence/advisories.json <osv json files...>`: the committed
 * advisory evidence, from OSV records (the OpenSSF malicious-packages database's `osv/malicious/**` files
 * and the GitHub Advisory Database's reviewed advisories, both in OSV format), each cut to what a verdict
 * needs (`src/model/advisories.ts`). Run by hand on local copies; data/README.md names the records and
 * where they come from. The tests read only the file it writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { UsageError } from '../src/errors/operator-error.js';
import { type Advisory, AdvisoryFileSchema, type AdvisoryFile } from '../src/model/advisories.js';
import { runMain } from './lib/main.js';

const USAGE = 'usage: npx tsx scripts/advisories.ts --out <file> --generated-at <ISO time> <osv json files...>';

const OsvSchema = z.looseObject({
  id: z.string(),
  aliases: z.array(z.string()).optional(),
  summary: z.string().optional(),
  published: z.string(),
  modified: z.string(),
  affected: z.array(
    z.looseObject({
      package: z.looseObject({ ecosystem: z.string(), name: z.string() }),
      ranges: z
        .array(z.looseObject({ type: z.string(), events: z.array(z.record(z.string(), z.string())) }))
        .optional(),
      versions: z.array(z.string()).optional(),
    }),
  ),
  references: z.array(z.looseObject({ type: z.string(), url: z.string() })).optional(),
  database_specific: z.looseObject({ severity: z.string().optional() }).optional(),
});

/** OSV times are RFC 3339; the file keeps them as UTC with a Z. */
const utc = (time: string) => new Date(time).toISOString().replace('.000Z', 'Z');

function advisoryOf(file: string): Advisory {
  const osv = OsvSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  const severity = osv.database_specific?.severity?.toLowerCase();
  const reference = osv.references?.find((ref) => ref.type === 'ADVISORY' && ref.url.startsWith('https://'));
  return {
    id: osv.id,
    aliases: osv.aliases ?? [],
    kind: osv.id.startsWith('MAL-') ? 'malicious' : 'vulnerability',
    summary: (osv.summary ?? osv.id).slice(0, 300),
    severity:
      severity === 'critical' || severity === 'high' || severity === 'moderate' || severity === 'low' ? severity : null,
    published: utc(osv.published),
    modified: utc(osv.modified),
    url: reference?.url ?? `https://osv.dev/vulnerability/${osv.id}`,
    affected: osv.affected.map((affected) => ({
      ecosystem: affected.package.ecosystem,
      name: affected.package.name,
      ranges: (affected.ranges ?? [])
        .filter((range) => range.type === 'SEMVER' || range.type === 'ECOSYSTEM')
        .map((range) => ({ type: range.type as 'SEMVER' | 'ECOSYSTEM', events: range.events })),
      versions: affected.versions ?? [],
    })),
  };
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { out: { type: 'string' }, 'generated-at': { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.out || !values['generated-at'] || positionals.length === 0) throw new UsageError(`advisories: ${USAGE}`);
  const file: AdvisoryFile = AdvisoryFileSchema.parse({
    generated_at: values['generated-at'],
    sources: [
      {
        name: 'OpenSSF malicious packages',
        repository: 'ossf/malicious-packages',
        commit: 'see data/README.md',
        licence: 'Apache-2.0',
      },
      {
        name: 'GitHub Advisory Database',
        repository: 'github/advisory-database',
        commit: 'see data/README.md',
        licence: 'CC-BY-4.0',
      },
    ],
    advisories: positionals.map(advisoryOf).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  });
  writeFileSync(values.out, `${JSON.stringify(file, null, 2)}\n`);
  console.log(`wrote ${values.out}: ${file.advisories.length} advisories`);
  return 0;
}

runMain(main);
