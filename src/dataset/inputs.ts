/**
 * The two input files of the importer, as zod schemas of the fields it reads, and the parsing that turns
 * their text into typed values or one clear line of error. Unknown fields do not break the import (the
 * scorecard's are dropped, the registry's kept as served); a field the importer reads that is missing or of
 * the wrong type stops it.
 */
import * as z from 'zod';
import { SignalsSchema } from '../model/record-schema.js';
import { type UpstreamEntry, UpstreamEntrySchema } from '../registry/upstream.js';

const Score = z.number().int().min(0).max(100);

/** One server of the scorecard index (`servers["<namespace>/<id>"]`). */
export const ScoredServerSchema = z.object({
  trust_score: Score,
  trust_label: z.string(),
  scores: z.object({ provenance: Score, maintenance: Score, popularity: Score, permissions: Score }),
  // The 23 documented signals with their types; a 24th the pipeline might add later is dropped, not an error.
  signals: z.object(SignalsSchema.shape),
  flags: z.array(z.string()),
});
export type ScoredServer = z.infer<typeof ScoredServerSchema>;

/** The scorecard index: `output/index.json` of gigabrainobserver/mcp-scorecard. */
export const ScorecardIndexSchema = z.object({
  generated_at: z.string().min(1),
  servers: z.record(z.string(), ScoredServerSchema),
});
export type ScorecardIndex = z.infer<typeof ScorecardIndexSchema>;

/**
 * One server version of the registry dump: the registry API's `ServerResponse`, read as the pipeline reads
 * the registry's pages (`UpstreamEntrySchema` of `src/registry/upstream.ts`: loosely, `null` as missing).
 * Not the served, strict entry (`RegistryEntrySchema` of `src/registry/schema.ts`), which every entry must
 * also pass before it is committed.
 */
export type RegistryDumpEntry = UpstreamEntry;

/** The registry dump: every version of every server, as a JSON array. */
export const RegistryDumpSchema = z.array(UpstreamEntrySchema);

/** Why an import cannot go on (an unusable input, a record the schema refuses): one line naming the cause. */
export class ImportError extends Error {
  override readonly name = 'ImportError';
}

/** How many schema problems a message lists before it says how many more there are. */
const MAX_ISSUES_IN_MESSAGE = 3;

/** `z.prettifyError` output folded onto one line, capped at a few issues. */
export function oneLineZodError(error: z.ZodError): string {
  const issues = z
    .prettifyError(error)
    .split(/\n(?=✖)/)
    .map((issue) =>
      issue
        .replace(/^✖\s*/, '')
        .replace(/\s*\n\s*→\s*/g, ' ')
        .trim(),
    );
  const shown = issues.slice(0, MAX_ISSUES_IN_MESSAGE).join('; ');
  const more = issues.length - MAX_ISSUES_IN_MESSAGE;
  return more > 0 ? `${shown}; and ${more} more` : shown;
}

/**
 * Parse the text of input file `file` as JSON and check it against `schema`. A leading byte-order mark is
 * skipped: the registry dump as published upstream starts with one.
 */
export function parseInput<T extends z.ZodType>(text: string, file: string, schema: T): z.infer<T> {
  let json: unknown;
  try {
    json = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ImportError(`${file} is not valid JSON: ${reason}`);
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    throw new ImportError(`${file} does not have the expected shape: ${oneLineZodError(result.error)}`);
  }
  return result.data;
}
