/**
 * Small helpers every source module uses to write its reading: a measured signal, and a missing one with its
 * reason (both bounded as the evidence schema wants), and the reading of a committed evidence file.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import type { EvidenceSourceName, SignalReading } from '../../model/evidence.js';
import { MAX_EVIDENCE_TEXT } from '../../model/evidence.js';

export const measured = (source: EvidenceSourceName, value: boolean | number | string): SignalReading => ({
  source,
  value: typeof value === 'string' ? value.slice(0, MAX_EVIDENCE_TEXT) : value,
  missing: null,
});

export const missing = (source: EvidenceSourceName, reason: string): SignalReading => ({
  source,
  value: null,
  missing: reason.slice(0, MAX_EVIDENCE_TEXT),
});

/**
 * A committed evidence file of `evidenceDir` (`data/evidence/<name>`), checked by its schema: undefined when
 * there is none (the source is then unread for every record); an error naming the file when it is there but
 * not what its schema says (a build never scores from a damaged file).
 */
export async function readEvidenceFile<T>(
  evidenceDir: string,
  name: string,
  schema: z.ZodType<T>,
): Promise<T | undefined> {
  const file = path.join(evidenceDir, name);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON (${(error as Error).message})`, { cause: error });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${file}: not the documented shape: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}
