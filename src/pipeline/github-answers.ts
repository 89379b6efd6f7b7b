/**
 * The three GitHub answers the method reads, as zod schemas of the members it reads (GitHub's REST API,
 * version 2022-11-28: `full-repository`, `community-profile`, `participation-stats`), and what each becomes.
 * Only the parsed subset is kept in the cache, next to the answer's ETag.
 */
import * as z from 'zod';
import type { GitHubFacts, RepositoryFacts } from '../scoring/facts.js';

export const RepositoryAnswerSchema = z.looseObject({
  stargazers_count: z.number().int().min(0),
  forks_count: z.number().int().min(0),
  subscribers_count: z.number().int().min(0).optional(),
  archived: z.boolean(),
  license: z.looseObject({ spdx_id: z.string().nullable() }).nullable(),
  created_at: z.string(),
  pushed_at: z.string().nullable(),
});

export const CommunityAnswerSchema = z.looseObject({
  // `security` is not a member GitHub documents; the method reads it all the same (and so finds none).
  files: z.looseObject({ code_of_conduct: z.unknown().nullable(), security: z.unknown().nullable().optional() }),
});

export const ParticipationAnswerSchema = z.looseObject({
  all: z.array(z.number().int().min(0)).max(53),
  owner: z.array(z.number().int().min(0)).max(53),
});

export const RepositoryFactsSchema = z.strictObject({
  stars: z.number().nullable(),
  forks: z.number().nullable(),
  watchers: z.number().nullable(),
  archived: z.boolean().nullable(),
  spdxId: z.string().nullable(),
  createdAt: z.string().nullable(),
  pushedAt: z.string().nullable(),
});
export const CommunityFactsSchema = z.strictObject({ hasSecurityPolicy: z.boolean(), hasCodeOfConduct: z.boolean() });
export const ParticipationFactsSchema = z.strictObject({ all: z.array(z.number()), owner: z.array(z.number()) });

export type Endpoint = 'repository' | 'community' | 'participation';

/** The path GitHub answers each endpoint on. */
export const ENDPOINT_ROUTES: Record<Endpoint, string> = {
  repository: 'GET /repos/{owner}/{repo}',
  community: 'GET /repos/{owner}/{repo}/community/profile',
  participation: 'GET /repos/{owner}/{repo}/stats/participation',
};

/** One answer turned into what the method reads, or an error message when it is not the documented shape. */
export function factsFromAnswer(endpoint: Endpoint, data: unknown): { facts: unknown } | { error: string } {
  if (typeof data !== 'object' || data === null) return { error: 'a body that is not JSON' };
  if (endpoint === 'repository') {
    const parsed = RepositoryAnswerSchema.safeParse(data);
    if (!parsed.success) return { error: 'a repository that is not the documented shape' };
    const r = parsed.data;
    const facts: RepositoryFacts = {
      stars: r.stargazers_count,
      forks: r.forks_count,
      watchers: r.subscribers_count ?? null,
      archived: r.archived,
      spdxId: r.license?.spdx_id ?? null,
      createdAt: r.created_at,
      pushedAt: r.pushed_at,
    };
    return { facts };
  }
  if (endpoint === 'community') {
    const parsed = CommunityAnswerSchema.safeParse(data);
    if (!parsed.success) return { error: 'a community profile that is not the documented shape' };
    const files = parsed.data.files;
    return {
      facts: {
        hasSecurityPolicy: files.security !== undefined && files.security !== null,
        hasCodeOfConduct: files.code_of_conduct !== undefined && files.code_of_conduct !== null,
      },
    };
  }
  const parsed = ParticipationAnswerSchema.safeParse(data);
  if (!parsed.success) return { error: 'participation statistics that are not the documented shape' };
  return { facts: { all: parsed.data.all, owner: parsed.data.owner } };
}

/**
 * `part` when it is what `schema` describes, else null. The part itself, not zod's copy of it: a night holds one
 * copy of each repository's facts (the cache's), however many outcomes share them.
 */
const checked = <T>(schema: z.ZodType<T>, part: unknown): T | null =>
  schema.safeParse(part).success ? (part as T) : null;

/** The facts of one repository from its three endpoints' facts (null where GitHub gave none). */
export function gitHubFacts(owner: string, parts: Partial<Record<Endpoint, unknown>>): GitHubFacts {
  return {
    owner,
    repository: checked(RepositoryFactsSchema, parts.repository),
    community: checked(CommunityFactsSchema, parts.community),
    participation: checked(ParticipationFactsSchema, parts.participation),
  };
}
