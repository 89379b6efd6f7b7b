/**
 * The build's side of the curators' catalog (`src/dataset/catalog.ts` joins it): reading the catalog file a
 * build is given, checked whole.
 *
 * A catalog-only record is scored like any other, through the evidence sources: nothing of it was measured
 * (the registry source says it is not in the registry, docs/method.md), so mts-2 gives it no score (0),
 * confidence 0 and INSUFFICIENT_EVIDENCE, until a night with network reads its repository.
 */
import * as z from 'zod';
import { CatalogFileSchema, type CatalogFile } from '../model/catalog.js';
import { readEvidenceJson } from './evidence-json.js';
import { InputError } from './input-files.js';

/** The catalog file `file`, checked whole; an InputError in one line per problem when it is not one. */
export async function readCatalogFile(file: string): Promise<CatalogFile> {
  const json = await readEvidenceJson(file, 'catalog');
  if (json === undefined) throw new InputError([`${file}: no such catalog file`]);
  const parsed = CatalogFileSchema.safeParse(json);
  if (!parsed.success) throw new InputError([`${file}: not a catalog file:\n${z.prettifyError(parsed.error)}`]);
  return parsed.data;
}
