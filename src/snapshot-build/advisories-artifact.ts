/**
 * The snapshot's advisories file (`ADVISORIES_FILE`): the committed advisories a snapshot scored with mts-2 was
 * made from, checked and compact, so that a check can judge a package no record holds.
 */
import path from 'node:path';
import { type AdvisoryFile, AdvisoryFileSchema } from '../model/advisories.js';
import { MTS2_METHOD, type MethodId } from '../scoring/methods.js';
import { ADVISORIES_FILE as ADVISORIES_SOURCE_FILE } from '../scoring/sources/advisories.js';
import { readEvidenceJson } from './evidence-json.js';
import { InputError } from './read-input.js';

/**
 * The committed advisories of `evidenceDir`, checked, for a snapshot scored with mts-2 (which reads them); none
 * for one that serves the dataset's own scores or when there is no advisory file. The build writes them compact.
 */
export async function readAdvisoriesFile(
  method: MethodId | undefined,
  evidenceDir: string,
): Promise<AdvisoryFile | undefined> {
  if ((method ?? MTS2_METHOD) !== MTS2_METHOD) return undefined;
  const file = path.join(evidenceDir, ADVISORIES_SOURCE_FILE);
  const value = await readEvidenceJson(file, 'advisories');
  if (value === undefined) return undefined;
  const parsed = AdvisoryFileSchema.safeParse(value);
  if (!parsed.success)
    throw new InputError([`${file}: not an advisory file: ${parsed.error.issues[0]?.message ?? ''}`]);
  return parsed.data;
}
