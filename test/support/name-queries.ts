/**
 * The curated lists' name queries (`test/fixtures/search/`, described in its README): what a person types for a
 * server and the registry servers that answer it, read and checked the same way by every test that measures
 * search against them.
 */
import { readFile } from 'node:fs/promises';
import * as z from 'zod';

const NameQueriesSchema = z.object({
  source: z.object({ repository: z.string(), commit: z.string().regex(/^[0-9a-f]{40}$/), licence: z.string() }),
  queries: z.array(
    z.object({
      half: z.enum(['tuning', 'held-out']),
      catalog: z.string(),
      query: z.string().min(2),
      repository: z.string(),
      expected: z.array(z.string()).min(1),
    }),
  ),
});

export type NameQuery = z.infer<typeof NameQueriesSchema>['queries'][number];

/** The lists: Docker's MCP Catalog, and the MCP servers README's Official Integrations and Community Servers. */
export const NAME_QUERY_SETS = {
  docker: 'test/fixtures/search/name-queries.json',
  official: 'test/fixtures/search/name-queries-official.json',
  community: 'test/fixtures/search/name-queries-community.json',
} as const;

export async function readNameQueries(set: keyof typeof NAME_QUERY_SETS): Promise<NameQuery[]> {
  return NameQueriesSchema.parse(JSON.parse(await readFile(NAME_QUERY_SETS[set], 'utf8'))).queries;
}

/** A share rounded to two places, as the tests state their figures. */
export function share(count: number, of: number): number {
  return Math.round((count / of) * 100) / 100;
}
