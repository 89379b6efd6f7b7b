/**
 * The Atom feeds: keyless for the same reason as the badge (a feed reader sends no key header, and scores
 * are public), cached publicly, with an ETag per snapshot. A feed is made once per snapshot and kept.
 */
import type { QueryEngine } from '../../query/types.js';
import { ServerPathSchema } from '../../model/schema.js';
import { ApiError, quote } from '../errors.js';
import { changesFeed, feedPairs, serverFeed } from '../feeds.js';
import type { Answer, HandlerContext } from '../route.js';
import { BADGE_CACHE_CONTROL } from './badge.js';
import { decodeSegment } from './servers.js';

const ATOM = 'application/atom+xml; charset=utf-8';
const FEED_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** Feeds already made (or being made), per engine: a new snapshot is a new engine, so its feeds are made anew. */
const made = new WeakMap<QueryEngine, Map<string, Promise<string | undefined>>>();

/** The feed under `key`, made once however many ask at once; a failure is not kept, so the next asks again. */
function memo(engine: QueryEngine, key: string, make: () => Promise<string | undefined> | string | undefined) {
  let feeds = made.get(engine);
  if (feeds === undefined) made.set(engine, (feeds = new Map()));
  let feed = feeds.get(key);
  if (feed === undefined) {
    feed = Promise.resolve().then(make);
    feeds.set(key, feed);
    feed.catch(() => feeds.delete(key));
  }
  return feed;
}

const document = (key: string, body: string): Answer => ({
  kind: 'document',
  key,
  status: 200,
  contentType: ATOM,
  cacheControl: BADGE_CACHE_CONTROL,
  headers: { 'content-security-policy': FEED_CSP },
  body,
});

export async function changesAtom({ engine }: HandlerContext): Promise<Answer> {
  const current = { snapshot_id: engine.snapshot.id, generated_at: engine.snapshot.generatedAt };
  const body = await memo(engine, 'changes', async () => {
    const history = engine.history();
    // Made once per snapshot: a walk of every server for each republish it lists, a slice at a time.
    return changesFeed(history, current, await engine.changesBetweenPairs(feedPairs(history)));
  });
  return document('feed\nchanges', body!);
}

export async function serverAtom({ engine, pathParams }: HandlerContext): Promise<Answer> {
  const namespace = decodeSegment('namespace', pathParams.namespace ?? '');
  const id = decodeSegment('id', pathParams.id ?? '');
  const name = `${namespace}/${id}`;
  const body = ServerPathSchema.safeParse({ namespace, id }).success
    ? await memo(engine, `server\n${name.toLowerCase()}`, () => serverFeed(engine.history(), name))
    : undefined;
  if (body === undefined) {
    throw new ApiError(
      'server_not_found',
      `Server ${quote(name, 100)} has no history here. Names are <namespace>/<id>; to find a server, search: ` +
        `GET /v1/search?q=${encodeURIComponent(id.slice(0, 40))}`,
    );
  }
  return document(`feed\nserver\n${name.toLowerCase()}`, body);
}
