/**
 * The figures docs/method.md gives for mts-2 beside the upstream method, on a whole dataset: how many servers
 * pass the default policy (a trust score of at least 40, no INSUFFICIENT_EVIDENCE, no blocking flag), the
 * bands, and how much was measured. `scripts/method-figures.ts` prints them (and writes them into the
 * document); `test/scoring/method-figures.test.ts` holds the document to them.
 */
import { ServerRecordSchema } from '../model/record-schema.js';
import type { ServerRecord } from '../model/schema.js';
import { flagDefinition, TRUST_BANDS } from '../model/vocabulary.js';
import { CONFIDENCE_THRESHOLD, INSUFFICIENT_EVIDENCE, MTS2_WEIGHTS } from '../scoring/mts2.js';
import { MTS2_RULES } from '../scoring/mts2-sources.js';
import { scoreRecord } from '../scoring/score-record.js';
import { repositoryCase, type RepositoryCase } from '../scoring/sources/repository.js';
import { defaultSourceContext, loadEvidenceSources, UNREAD_SOURCES } from './evidence-sources.js';

/** The default policy's verdict on a record: PASS unless blocked, insufficient or below 40. */
export function passesDefaultPolicy(record: ServerRecord): boolean {
  return (
    record.trust_score >= 40 &&
    !record.flags.includes(INSUFFICIENT_EVIDENCE) &&
    !record.flags.some((flag) => flagDefinition(flag)?.blocking === true)
  );
}

export interface MethodFigures {
  servers: number;
  pass: { upstream: number; mts2: number };
  bands: Record<string, { upstream: number; mts2: number }>;
  insufficient: number;
  confidence: { min: number; median: number; full: number };
  repository: Record<RepositoryCase, number>;
}

export async function methodFigures(raws: readonly unknown[], cwd = process.cwd()): Promise<MethodFigures> {
  const sources = await loadEvidenceSources(defaultSourceContext(cwd));
  const bands = Object.fromEntries(TRUST_BANDS.map((band) => [band.label, { upstream: 0, mts2: 0 }]));
  const repository: Record<RepositoryCase, number> = {
    'no-signals': 0,
    'no-repository': 0,
    'not-github': 0,
    'not-read': 0,
    'not-found': 0,
    read: 0,
  };
  const confidences: number[] = [];
  let passUpstream = 0;
  let passMts2 = 0;
  let insufficient = 0;
  for (const raw of raws) {
    const upstream = ServerRecordSchema.parse(raw);
    const { record, outcome } = scoreRecord(upstream, sources, UNREAD_SOURCES);
    if (passesDefaultPolicy(upstream)) passUpstream++;
    if (passesDefaultPolicy(record)) passMts2++;
    if (outcome.insufficient) insufficient++;
    bands[upstream.trust_label]!.upstream++;
    bands[record.trust_label]!.mts2++;
    confidences.push(outcome.confidence);
    repository[repositoryCase(upstream).case]++;
  }
  confidences.sort((a, b) => a - b);
  return {
    servers: raws.length,
    pass: { upstream: passUpstream, mts2: passMts2 },
    bands,
    insufficient,
    confidence: {
      min: confidences[0] ?? 0,
      median: confidences[Math.floor(confidences.length / 2)] ?? 0,
      full: confidences.filter((c) => c === 100).length,
    },
    repository,
  };
}

const percent = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(1)} %`;
const count = (n: number): string => n.toLocaleString('en-US');

/** The figures as the Markdown docs/method.md carries between its `method-figures` markers. */
export function figuresMarkdown(f: MethodFigures): string {
  const rows = [
    '| | msc-7bc729d (upstream) | mts-2 |',
    '| --- | ---: | ---: |',
    `| servers | ${count(f.servers)} | ${count(f.servers)} |`,
    `| **pass the default policy** | **${count(f.pass.upstream)} (${percent(f.pass.upstream, f.servers)})** | **${count(f.pass.mts2)} (${percent(f.pass.mts2, f.servers)})** |`,
    ...Object.entries(f.bands).map(([label, n]) => `| ${label} | ${count(n.upstream)} | ${count(n.mts2)} |`),
    `| INSUFFICIENT_EVIDENCE (confidence below ${CONFIDENCE_THRESHOLD}) | n/a | ${count(f.insufficient)} |`,
  ];
  const cases = [
    '| repository evidence | servers |',
    '| --- | ---: |',
    `| read by the scoring run | ${count(f.repository.read)} |`,
    `| no repository in the registry entry | ${count(f.repository['no-repository'])} |`,
    `| not on GitHub | ${count(f.repository['not-github'])} |`,
    `| not read by the scoring run | ${count(f.repository['not-read'])} |`,
    `| no data from GitHub (a 404, or a refused request) | ${count(f.repository['not-found'])} |`,
    `| no signals in the dataset | ${count(f.repository['no-signals'])} |`,
  ];
  return [
    rows.join('\n'),
    '',
    `Confidence: lowest ${f.confidence.min}, median ${f.confidence.median}; ${count(f.confidence.full)} servers fully measured (100).`,
    '',
    cases.join('\n'),
  ].join('\n');
}

/** Every rule of mts-2 as a table: its signal, source, sub-score, points, and share of the method's weight. */
export function rulesMarkdown(): string {
  const totals = new Map<string, number>();
  for (const rule of MTS2_RULES) totals.set(rule.subscore, (totals.get(rule.subscore) ?? 0) + rule.max);
  const weight = new Map(MTS2_WEIGHTS);
  const rows = MTS2_RULES.map((rule) => {
    const share = ((weight.get(rule.subscore) ?? 0) * rule.max) / (totals.get(rule.subscore) ?? 1);
    const kind =
      rule.declared === true
        ? 'declared'
        : rule.vouches === undefined
          ? 'verified'
          : 'verified, vouches only for some values';
    return `| \`${rule.signal}\` | ${rule.source} | ${rule.subscore} | ${rule.max} | ${(share * 100).toFixed(1)} % | ${kind} |`;
  });
  return [
    '| signal | source | sub-score | max points | share of the method | evidence |',
    '| --- | --- | --- | ---: | ---: | --- |',
    ...rows,
  ].join('\n');
}

/** `document` with its `name` block (between `<!-- name:start -->` and `<!-- name:end -->`) made `markdown`. */
export function withBlock(document: string, name: string, markdown: string): string {
  const startMarker = `<!-- ${name}:start -->`;
  const endMarker = `<!-- ${name}:end -->`;
  const start = document.indexOf(startMarker);
  const end = document.indexOf(endMarker);
  if (start < 0 || end < start) throw new Error(`the document has no ${startMarker} ... ${endMarker} block`);
  return `${document.slice(0, start + startMarker.length)}\n\n${markdown}\n\n${document.slice(end)}`;
}
