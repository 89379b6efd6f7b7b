/**
 * A seeded generator of realistic synthetic server records, for benchmarks at sizes the real dataset
 * does not reach. The same seed always gives the same records. Names follow the real registry's shapes
 * (`io.github.<user>/<words>`, `com.<company>/<words>`), flags and label shares follow the real scoring
 * run's proportions roughly, and every record carries signals, so record sizes are realistic too.
 */
import { labelForScore, type ServerRecord } from '../model/schema.js';

/** mulberry32: small, fast, good enough for test data. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ran',
  'tek',
  'zu',
  'vo',
  'shi',
  'ne',
  'dar',
  'qu',
  'bel',
  'fin',
  'gor',
  'hex',
  'jin',
  'pax',
  'sol',
  'ty',
  'wen',
];
const PLATFORM_WORDS: Record<string, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  slack: 'Slack',
  postgres: 'PostgreSQL',
  mysql: 'MySQL',
  mongodb: 'MongoDB',
  redis: 'Redis',
  jira: 'Jira',
  notion: 'Notion',
  stripe: 'Stripe',
  discord: 'Discord',
  aws: 'AWS',
  azure: 'Azure',
  kubernetes: 'Kubernetes',
  docker: 'Docker',
  figma: 'Figma',
  linear: 'Linear',
  sentry: 'Sentry',
  shopify: 'Shopify',
  salesforce: 'Salesforce',
  supabase: 'Supabase',
  snowflake: 'Snowflake',
  gmail: 'Gmail',
  confluence: 'Confluence',
};
const TOPIC_WORDS = [
  'search',
  'files',
  'memory',
  'browser',
  'weather',
  'docs',
  'api',
  'analytics',
  'calendar',
  'crm',
  'email',
  'maps',
  'finance',
  'crypto',
  'news',
  'translate',
  'vector',
  'sql',
  'agent',
  'workflow',
  'deploy',
  'monitor',
  'security',
  'scanner',
  'knowledge',
  'graph',
  'tasks',
  'notes',
  'images',
  'video',
  'audio',
  'code',
  'review',
  'tools',
];
const SUFFIXES = ['mcp', 'mcp-server', 'server', 'mcp', 'tools', 'connector', 'bridge', ''];
const FLAG_RATES: [string, number][] = [
  ['TEMPLATE_DESCRIPTION', 0.2],
  ['NO_SOURCE', 0.12],
  ['DEAD_ENTRY', 0.03],
  ['DESCRIPTION_DUPLICATE', 0.02],
  ['SENSITIVE_CRED_REQUEST', 0.02],
  ['HIGH_SECRET_DEMAND', 0.01],
  ['REPO_ARCHIVED', 0.006],
  ['STAGING_ARTIFACT', 0.004],
];
/** Words of registry descriptions, commonest first (descriptions draw them with a skew, as real text has). */
const DESCRIPTION_WORDS = (
  'mcp server for the and to with your data ai agents access tools manage search read write create ' +
  'files api local model context protocol integration query list update delete documents using via ' +
  'assistant secure fast simple open source real time automation workflows messages users projects ' +
  'issues repositories database tables records analytics reports dashboards metrics logs alerts ' +
  'monitoring deploy cloud storage images video audio web pages scraping browser content markdown ' +
  'notes tasks calendar events email contacts payments invoices customers orders products inventory ' +
  'maps places weather forecasts news articles research papers code review tests builds pipelines ' +
  'secrets keys tokens permissions teams channels chat knowledge graph vector embeddings memory ' +
  'translation languages speech transcription summaries sql schemas migrations backups'
).split(' ');

const PACKAGE_TYPES = ['npm', 'pypi', 'oci', 'mcpb', 'nuget'];
const TRANSPORTS = ['stdio', 'streamable-http', 'sse'];

/** Generate `count` valid, distinct records from `seed`. */
export function generateRecords(count: number, seed = 42): ServerRecord[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const word = () => pick(SYLLABLES) + pick(SYLLABLES) + (random() < 0.5 ? pick(SYLLABLES) : '');
  const platforms = Object.keys(PLATFORM_WORDS);
  const users = Array.from({ length: Math.max(10, Math.floor(count / 4)) }, () => word());
  const companies = Array.from({ length: Math.max(5, Math.floor(count / 40)) }, () => word());
  const seen = new Set<string>();
  const records: ServerRecord[] = [];
  // Descriptions come from their own sequence, so adding them left every other field as it was.
  const describeRandom = seededRandom(seed ^ 0x5eed);
  const describe = (parts: readonly string[]) => {
    const words = [...parts.filter((part) => part !== 'mcp' && part !== 'server')];
    const length = 6 + Math.floor(describeRandom() * 12);
    while (words.length < length)
      words.push(DESCRIPTION_WORDS[Math.floor(describeRandom() ** 2 * DESCRIPTION_WORDS.length)]!);
    const text = words.join(' ');
    return text.charAt(0).toUpperCase() + text.slice(1);
  };

  for (let n = 0; records.length < count; n++) {
    const roll = random();
    const namespace =
      roll < 0.7
        ? `io.github.${pick(users)}`
        : roll < 0.85
          ? `com.${pick(companies)}`
          : roll < 0.95
            ? `ai.${pick(companies)}`
            : `dev.${pick(users)}`;
    const parts: string[] = [];
    if (random() < 0.6) parts.push(pick(platforms));
    parts.push(random() < 0.5 ? pick(TOPIC_WORDS) : word());
    const suffix = pick(SUFFIXES);
    if (suffix) parts.push(suffix);
    let name = `${namespace}/${parts.join('-')}`;
    if (seen.has(name.toLowerCase())) name = `${name}-${n.toString(36)}`;
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());

    const scores = {
      provenance: int(0, 100),
      maintenance: int(0, 100),
      popularity: int(0, 60),
      permissions: int(20, 100),
    };
    const trust = Math.round(
      0.3 * scores.provenance + 0.25 * scores.maintenance + 0.2 * scores.popularity + 0.25 * scores.permissions,
    );
    const flags = FLAG_RATES.filter(([, rate]) => random() < rate).map(([flag]) => flag);
    const hasSource = !flags.includes('NO_SOURCE');
    const targets = parts.filter((part) => part in PLATFORM_WORDS).map((part) => PLATFORM_WORDS[part]!);
    const packageTypes = random() < 0.9 ? [pick(PACKAGE_TYPES)] : [];
    const transports = [...new Set([pick(TRANSPORTS), ...(random() < 0.3 ? [pick(TRANSPORTS)] : [])])];
    const [owner = 'example'] = namespace.startsWith('io.github.') ? [namespace.slice('io.github.'.length)] : [];
    const stars = Math.floor(random() ** 4 * 5000);
    const day = int(1, 28);
    // Keys in the schema's order, as the importer writes records (the build reorders any other order).
    records.push({
      name,
      trust_score: trust,
      trust_label: labelForScore(trust),
      scores,
      flags,
      badges:
        stars >= 1000 ? [{ id: 'popular', label: 'Popular', evidence: `${stars} GitHub stars (at least 1000)` }] : [],
      verified_publisher: random() < 0.01,
      targets,
      scored_at: `2026-02-${String(day).padStart(2, '0')}T${String(int(0, 23)).padStart(2, '0')}:00:00.000Z`,
      install: {
        repo_url: hasSource ? `https://github.com/${owner}/${parts.join('-')}` : null,
        version: random() < 0.9 ? `${int(0, 3)}.${int(0, 20)}.${int(0, 30)}` : null,
        package_types: packageTypes,
        transport_types: transports,
      },
      signals: {
        has_source_repo: hasSource,
        repo_not_archived: !flags.includes('REPO_ARCHIVED'),
        has_license: random() < 0.7,
        has_installable_package: packageTypes.length > 0,
        has_website_url: random() < 0.3,
        has_icon: random() < 0.2,
        namespace_matches_owner: random() < 0.8,
        has_security_md: random() < 0.1,
        has_code_of_conduct: random() < 0.08,
        unique_description: !flags.includes('DESCRIPTION_DUPLICATE'),
        repo_age_over_90d: random() < 0.5,
        last_push_recency: Math.round(random() * 100) / 100,
        active_commit_weeks: int(0, 52),
        contributor_count: int(1, 40),
        version_count: int(1, 30),
        releases_past_year: int(0, 12),
        github_stars: stars,
        github_forks: Math.floor(stars / 8),
        github_watchers: Math.floor(stars / 30),
        secret_env_var_count: int(0, 4),
        transport_type_risk: pick([0, 10, 25]),
        credential_sensitivity: pick([0, 15, 30, 45]),
        package_type_risk: pick([0, 10, 20]),
      },
      ...(describeRandom() < 0.95 ? { description: describe(parts) } : {}),
    });
  }
  return records;
}
