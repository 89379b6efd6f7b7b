/**
 * The build's hook for evidence: makes every source mts-2 reads, once per build, from the one list of
 * sources, `MTS2_SOURCES` in `src/scoring/mts2-sources.ts` (a source is registered by one line there; the
 * list lives beside the method because the explanation of a score reads its rule tables at serve time, and
 * nothing a server loads may import this folder). Also says why a source no line registers is unmeasured.
 */
import path from 'node:path';
import type { EvidenceSourceName } from '../model/evidence.js';
import { MTS2_SOURCES, type SourceContext } from '../scoring/mts2-sources.js';
import type { RegisteredSource, UnreadReasons } from '../scoring/score-record.js';
import { InputError } from './input-files.js';

export type { SourceContext } from '../scoring/mts2-sources.js';

/** Why a source no module reads is unmeasured, as every record's evidence says it. */
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
  const seen = new Set<EvidenceSourceName>();
  const made: RegisteredSource[] = [];
  for (const entry of MTS2_SOURCES) {
    if (seen.has(entry.name)) throw new Error(`evidence source ${entry.name} is registered twice`);
    seen.add(entry.name);
    let source;
    try {
      source = await entry.make(context);
    } catch (error) {
      // A damaged evidence file is bad input, said in one line like any other (src/scoring/sources/reading.ts).
      if (error instanceof Error && !(error instanceof InputError)) throw new InputError([error.message]);
      throw error;
    }
    if (source.name !== entry.name) throw new Error(`evidence source ${entry.name} reads as ${source.name}`);
    made.push({ source, rules: entry.rules });
  }
  return made;
}
