/**
 * The sources of evidence a build scores with (mts-2, `src/scoring/mts2.ts`), in the order they are read.
 * Adding a source is one line below: its module (under `src/scoring/sources/`) and its rule table; a source
 * that reads a committed evidence file (`data/evidence/*.json`) loads it in its line's function, once per
 * build, so its `read` stays pure.
 */
import path from 'node:path';
import type { EvidenceSourceName } from '../model/evidence.js';
import type { RegisteredSource, UnreadReasons } from '../scoring/score-record.js';
import { REGISTRY_RULES, registrySource } from '../scoring/sources/registry.js';
import { REPOSITORY_RULES, repositorySource } from '../scoring/sources/repository.js';

/** What a source may need to load: where the committed evidence files are. */
export interface SourceContext {
  /** `data/evidence/` of the dataset being built. */
  evidenceDir: string;
}

export type SourceFactory = (context: SourceContext) => RegisteredSource | Promise<RegisteredSource>;

/** One line per source. */
export const EVIDENCE_SOURCE_FACTORIES: readonly SourceFactory[] = [
  () => ({ source: registrySource, rules: REGISTRY_RULES }),
  () => ({ source: repositorySource, rules: REPOSITORY_RULES }),
];

/** Why a source no line above reads is unmeasured, as every record's evidence says it. */
export const UNREAD_SOURCES: UnreadReasons = {
  registry: 'the registry entry was not read for this snapshot',
  repository: 'the repository was not read for this snapshot',
  packages: 'package registries were not read for this snapshot (no package evidence in the dataset)',
  probe: 'the remote was not probed for this snapshot (no probe evidence in the dataset)',
  advisories: 'advisory databases were not read for this snapshot (no advisory evidence in the dataset)',
};

export function defaultSourceContext(cwd: string = process.cwd()): SourceContext {
  return { evidenceDir: path.resolve(cwd, 'data', 'evidence') };
}

/** Make every registered source for one build; a source that cannot load its evidence fails the build. */
export async function loadEvidenceSources(context: SourceContext): Promise<RegisteredSource[]> {
  const sources = await Promise.all(EVIDENCE_SOURCE_FACTORIES.map((make) => make(context)));
  const seen = new Set<EvidenceSourceName>();
  for (const { source } of sources) {
    if (seen.has(source.name)) throw new Error(`evidence source ${source.name} is registered twice`);
    seen.add(source.name);
  }
  return sources;
}
