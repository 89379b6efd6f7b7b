/**
 * The method's red flags: structural findings raised beside the score, never folded into it. One of them
 * (DESCRIPTION_DUPLICATE) needs the whole collection, so the context is made once per run.
 */
import type { GitHubFacts, ServerFacts } from './facts.js';
import { DUPLICATE_NAMESPACES_AT, HIGH_SECRET_DEMAND_AT, STAGING_PATTERNS, type FlagName } from './method.js';
import { isSensitiveVariable, isTemplateDescription } from './signals.js';

/** Corpus-wide lookups: how many distinct namespaces publish each (lower-cased, trimmed) description. */
export interface FlagContext {
  namespacesByDescription: ReadonlyMap<string, number>;
}

export function flagContext(all: Iterable<Pick<ServerFacts, 'description' | 'namespace'>>): FlagContext {
  const namespaces = new Map<string, Set<string>>();
  for (const facts of all) {
    const key = facts.description.toLowerCase().trim();
    if (key === '') continue;
    const set = namespaces.get(key) ?? new Set<string>();
    set.add(facts.namespace);
    namespaces.set(key, set);
  }
  return { namespacesByDescription: new Map([...namespaces].map(([key, set]) => [key, set.size])) };
}

const isStaging = (text: string): boolean => {
  const lowered = text.toLowerCase();
  return STAGING_PATTERNS.some((pattern) => lowered.includes(pattern));
};

/** The flags of one server, in the method's order. `github` as for `signalsFor`. */
export function flagsFor(facts: ServerFacts, github: GitHubFacts | null, context: FlagContext): FlagName[] {
  const flags: FlagName[] = [];
  const template = isTemplateDescription(facts.description);
  if (!facts.hasPackages && !facts.hasRemotes) flags.push('DEAD_ENTRY');
  if (template) flags.push('TEMPLATE_DESCRIPTION');
  if ((isStaging(facts.name) || isStaging(facts.serverId)) && template) flags.push('STAGING_ARTIFACT');
  if (facts.envVars.filter((variable) => variable.isSecret).length >= HIGH_SECRET_DEMAND_AT) {
    flags.push('HIGH_SECRET_DEMAND');
  }
  if (facts.envVars.some((variable) => isSensitiveVariable(variable.name))) flags.push('SENSITIVE_CRED_REQUEST');
  if (github?.repository?.archived === true) flags.push('REPO_ARCHIVED');
  if (facts.repoUrl === null && facts.packageIdentifiers.length === 0) flags.push('NO_SOURCE');
  const key = facts.description.toLowerCase().trim();
  if (key !== '' && (context.namespacesByDescription.get(key) ?? 0) >= DUPLICATE_NAMESPACES_AT) {
    flags.push('DESCRIPTION_DUPLICATE');
  }
  return flags;
}
