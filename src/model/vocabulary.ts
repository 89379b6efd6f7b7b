/**
 * The words of the service, once: the trust bands (label, key, score range) and the flags (name, meaning,
 * severity). The schema takes its labels from here; the MCP texts and tool descriptions, the OpenAPI
 * document and the site (`public/vocabulary.js`, written by `scripts/generated-files.ts`) say the same.
 */

/** The trust bands of the decisions (section 2), highest first. A label is a function of the score. */
export const TRUST_BANDS = [
  { label: 'High Trust', key: 'high', min: 80, max: 100 },
  { label: 'Moderate Trust', key: 'moderate', min: 60, max: 79 },
  { label: 'Low Trust', key: 'low', min: 40, max: 59 },
  { label: 'Very Low Trust', key: 'verylow', min: 20, max: 39 },
  { label: 'Unknown/Suspicious', key: 'unknown', min: 0, max: 19 },
] as const;

export type TrustLabel = (typeof TRUST_BANDS)[number]['label'];

/** How much a flag should weigh in a decision to trust a server. */
export type FlagSeverity = 'high' | 'medium' | 'low';

export interface FlagDefinition {
  name: string;
  /** What the flag says about a server, as a clause that can follow its name ("NO_SOURCE: ..."). */
  meaning: string;
  severity: FlagSeverity;
  /** A finding of known-bad evidence: the server scores 0 and fails every policy, allow lists included. */
  blocking?: true;
}

/**
 * Every flag the scoring pipeline raises (MCP Scorecard's flag rules; data/README.md gives the source), most
 * severe first. The list is open-ended: a flag not known here is shown by name.
 */
export const FLAGS: readonly FlagDefinition[] = [
  {
    name: 'KNOWN_MALICIOUS',
    meaning:
      'a package of it is published as malware, or the version named is a known-malicious release (an OSV MAL- advisory)',
    severity: 'high',
    blocking: true,
  },
  {
    name: 'REGISTRY_TAKEDOWN',
    meaning: 'taken down by a registry: deleted by the MCP registry or removed for security by a package registry',
    severity: 'high',
    blocking: true,
  },
  {
    name: 'VULNERABLE_VERSION',
    meaning: 'the version named has a published vulnerability advisory with a fixed version',
    severity: 'high',
  },
  {
    name: 'REMOTE_UNREACHABLE',
    meaning: 'its remote endpoint did not answer on consecutive probes',
    severity: 'high',
  },
  {
    name: 'TOOL_INSTRUCTIONS',
    meaning:
      'a tool description addresses the model (hidden tags, instructions to ignore or call, invisible characters)',
    severity: 'high',
  },
  {
    name: 'TOOLS_CHANGED',
    meaning: 'its tool definitions changed while its version did not',
    severity: 'medium',
  },
  {
    name: 'DEPRECATED',
    meaning: 'marked deprecated by its publisher in the MCP registry or its package registry',
    severity: 'medium',
  },
  {
    name: 'SSE_ONLY',
    meaning: 'its only remote transport is SSE, which the MCP specification deprecates',
    severity: 'low',
  },
  {
    name: 'INSUFFICIENT_EVIDENCE',
    meaning: 'too little of it was measured to score it with confidence: the score rests on few facts',
    severity: 'low',
  },
  {
    name: 'NO_SOURCE',
    meaning: 'no public source repository and no verifiable package source: the code cannot be inspected',
    severity: 'high',
  },
  {
    name: 'DEAD_ENTRY',
    meaning: 'no packages and no remotes: the registry entry cannot be installed or reached',
    severity: 'high',
  },
  {
    name: 'SENSITIVE_CRED_REQUEST',
    meaning: 'asks for high-risk credentials (wallet keys, database passwords, private keys, seed phrases)',
    severity: 'high',
  },
  { name: 'HIGH_SECRET_DEMAND', meaning: 'asks for 5 or more secret environment variables', severity: 'medium' },
  {
    name: 'REPO_ARCHIVED',
    meaning: 'its source repository is archived by its maintainer: no longer maintained',
    severity: 'medium',
  },
  {
    name: 'STAGING_ARTIFACT',
    meaning: 'a test or staging name with a template description: probably published by mistake',
    severity: 'medium',
  },
  {
    name: 'TEMPLATE_DESCRIPTION',
    meaning: 'its description is boilerplate rather than a statement of what it does',
    severity: 'low',
  },
  {
    name: 'DESCRIPTION_DUPLICATE',
    meaning: 'the same description is used by servers of 3 or more different publishers',
    severity: 'low',
  },
];

const FLAG_BY_NAME = new Map(FLAGS.map((flag) => [flag.name, flag]));

/** The definition of flag `name`, or undefined for a flag this table does not know. */
export function flagDefinition(name: string): FlagDefinition | undefined {
  return FLAG_BY_NAME.get(name);
}

/** The band table as one line, e.g. "High Trust 80-100, Moderate Trust 60-79, ...". */
export const BANDS_TEXT = TRUST_BANDS.map((band) => `${band.label} ${band.min}-${band.max}`).join(', ');

/** The flags as a model needs them: the severe ones explained, the others named. */
export const FLAGS_TEXT =
  'Flags are red flags: ' +
  FLAGS.filter((flag) => flag.severity === 'high')
    .map((flag) => `${flag.name} = ${flag.meaning}`)
    .join('; ') +
  '. Other flags: ' +
  FLAGS.filter((flag) => flag.severity !== 'high')
    .map((flag) => `${flag.name} (${flag.meaning})`)
    .join('; ') +
  '.';

/** What the site needs, as the source of an ES module (`public/vocabulary.js`). */
export function vocabularyModule(): string {
  const bands = TRUST_BANDS.map(({ label, key, min, max }) => ({ label, key, min, max }));
  return [
    '// Generated from src/model/vocabulary.ts by scripts/generated-files.ts: do not edit.',
    '',
    '/** The trust bands, highest first: label, CSS key, score range. */',
    `export const BANDS = ${JSON.stringify(bands, null, 2)};`,
    '',
    '/** Every known flag, most severe first: name, meaning, severity. */',
    `export const FLAGS = ${JSON.stringify(FLAGS, null, 2)};`,
    '',
  ].join('\n');
}
