/**
 * What a build publishes of its committed evidence beside the records: the advisories a check judges a package
 * no record holds by (`advisories-artifact.ts`), the pinned tools the tools route answers (`tools-artifact.ts`),
 * and what the history records of each server from them: its pinned tools' hash and its advisories' ids, which
 * the change kinds `tools_changed` and `advisory_added` compare.
 */
import path from 'node:path';
import { ADVISORIES_FILE, TOOLS_FILE } from '../format/manifest.js';
import { toolsArtifactText } from '../format/tools-artifact.js';
import type { ExtrasOf } from '../history/history.js';
import { type AdvisoryFile, indexAdvisories, recordAdvisoryIds } from '../model/advisories.js';
import type { ToolsFile } from '../model/tools.js';
import type { MethodId } from '../scoring/methods.js';
import { readAdvisoriesFile } from './advisories-artifact.js';
import { writeText, type Written } from './artifact-files.js';
import { checkToolsFile, readToolsFile } from './tools-artifact.js';

export interface EvidenceArtifacts {
  /** The advisory file, when the snapshot is scored with one. */
  advisories?: AdvisoryFile | undefined;
  /** The pinned tools, when the build has them. */
  tools?: ToolsFile | undefined;
}

/** The committed advisories and pinned tools of `evidenceDir`, each checked whole, for a snapshot scored with `method`. */
export async function readEvidence(method: MethodId | undefined, evidenceDir: string): Promise<EvidenceArtifacts> {
  return {
    advisories: await readAdvisoriesFile(method, evidenceDir),
    tools: await readToolsFile(method, evidenceDir),
  };
}

/** The evidence `writeSnapshot` is given: pinned tools as `data/evidence/tools.json` would hold them, checked. */
export function givenEvidence(tools: unknown): EvidenceArtifacts {
  return tools === undefined ? {} : { tools: checkToolsFile(tools, '(tools)') };
}

/**
 * Write the files into the snapshot folder `folder` whose servers are `names`; the file table's entries. Checks
 * answer from the advisories and the tools route from the tools, so both are part of the snapshot's id.
 */
export async function writeEvidence(
  evidence: EvidenceArtifacts,
  folder: string,
  names: readonly string[],
): Promise<Record<string, Written>> {
  const files: Record<string, Written> = {};
  if (evidence.advisories !== undefined)
    files[ADVISORIES_FILE] = await writeText(path.join(folder, ADVISORIES_FILE), JSON.stringify(evidence.advisories));
  if (evidence.tools !== undefined) {
    // Only the snapshot's own servers: no route could ask for another.
    const kept = new Set(names.map((name) => name.toLowerCase()));
    const text = toolsArtifactText(evidence.tools, (name) => kept.has(name));
    files[TOOLS_FILE] = await writeText(path.join(folder, TOOLS_FILE), text);
  }
  return files;
}

/**
 * What the history records of each server beyond its summary: its pinned tools' hash and the ids of the
 * advisories its record keeps (as the advisory source keeps them, from the same file and its packages).
 */
export function historyExtras({ advisories, tools }: EvidenceArtifacts): ExtrasOf {
  const index = advisories === undefined ? new Map() : indexAdvisories(advisories);
  const hashes = new Map((tools?.servers ?? []).map((server) => [server.name.toLowerCase(), server.hash]));
  return (record) => ({
    tools_hash: hashes.get(record.name.toLowerCase()),
    advisories: recordAdvisoryIds(index, record.packages ?? []),
  });
}
