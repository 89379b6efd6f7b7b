/**
 * The badge of a server for READMEs: keyless, because a README image cannot send a header and the score is
 * public; cached by browsers for minutes and by shared caches for an hour, with an ETag per snapshot. An
 * unknown name gets a grey "not scored" badge with status 404, so an image never breaks. The query string is
 * ignored (READMEs add cache-busting parameters).
 */
import { ServerPathSchema } from '../../model/schema.js';
import { notScoredBadge, trustBadge } from '../badge.js';
import type { Answer, HandlerContext } from '../route.js';
import { decodeSegment } from './servers.js';

/** Browsers for five minutes, shared caches (CDNs, GitHub's image proxy) for an hour. */
export const BADGE_CACHE_CONTROL = 'public, max-age=300, s-maxage=3600';
/** An SVG shown as an image runs nothing; opened as a page, it may load nothing either. */
export const BADGE_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

export function badge({ engine, pathParams }: HandlerContext): Answer {
  const namespace = decodeSegment('namespace', pathParams.namespace ?? '');
  const id = decodeSegment('id', pathParams.id ?? '');
  const name = `${namespace}/${id}`;
  const valid = ServerPathSchema.safeParse({ namespace, id }).success;
  const json = valid ? engine.getJson(name) : undefined;
  const record = json === undefined ? undefined : (JSON.parse(json) as { name: string; trust_score: number });
  return {
    kind: 'document',
    key: `badge\n${name.toLowerCase()}`,
    status: record === undefined ? 404 : 200,
    contentType: 'image/svg+xml; charset=utf-8',
    cacheControl: BADGE_CACHE_CONTROL,
    headers: { 'content-security-policy': BADGE_CSP },
    body: record === undefined ? notScoredBadge(name) : trustBadge(record.name, record.trust_score),
  };
}
