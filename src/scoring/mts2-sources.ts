/**
 * The sources mts-2 reads, one line each: the source's name, its rule table, and how a build makes it (a
 * source that reads a committed evidence file loads it in `make`, once per build, so its `read` stays
 * pure). The build reads this list through `src/snapshot-build/evidence-sources.ts`; the explanation of a score reads
 * the rule tables here at serve time, which is why the list lives in `src/scoring/` (nothing a server loads
 * may import `src/snapshot-build/`). Adding a source is its module under `src/scoring/sources/` and one line below.
 */
import type { EvidenceSourceName } from '../model/evidence.js';
import type { EvidenceSource, SignalRule } from './evidence-source.js';
import { ADVISORIES_RULES, advisoriesSource } from './sources/advisories.js';
import { PACKAGES_RULES, packagesSource } from './sources/packages.js';
import { PROBE_RULES, probeSource } from './sources/probe.js';
import { REGISTRY_RULES, registrySource } from './sources/registry.js';
import { REPOSITORY_RULES, repositorySource } from './sources/repository.js';

/** What a source may need to load: where the committed evidence files are (`data/evidence/`). */
export interface SourceContext {
  evidenceDir: string;
}

export interface SourceModule {
  name: EvidenceSourceName;
  rules: readonly SignalRule[];
  make(context: SourceContext): EvidenceSource | Promise<EvidenceSource>;
}

export const MTS2_SOURCES: readonly SourceModule[] = [
  { name: 'registry', rules: REGISTRY_RULES, make: () => registrySource },
  { name: 'repository', rules: REPOSITORY_RULES, make: () => repositorySource },
  { name: 'packages', rules: PACKAGES_RULES, make: packagesSource },
  { name: 'probe', rules: PROBE_RULES, make: ({ evidenceDir }) => probeSource(evidenceDir) },
  { name: 'advisories', rules: ADVISORIES_RULES, make: ({ evidenceDir }) => advisoriesSource(evidenceDir) },
];

/** Every rule of mts-2, in the sources' order. */
export const MTS2_RULES: readonly SignalRule[] = MTS2_SOURCES.flatMap((source) => source.rules);
