/**
 * Enrich: the three GitHub answers the method reads for each repository, through Octokit with its throttling
 * and retry plugins. Conditional requests carry the ETag the cache kept, so an unchanged repository costs a
 * 304, which GitHub does not count against the rate limit. Limits are obeyed, not fought: a spent primary limit
 * (or a secondary limit's Retry-After) is waited out when that is within `maxWaitMs`; otherwise the run stops
 * asking, keeps what it has, and says why. A 404 is an answer (nothing found); a 401 ends the run.
 *
 * The hour's budget is a checkpoint, not a wall: the run stops once `x-ratelimit-remaining` is down to
 * `reserve` (left for whatever else uses the token) and the reset is past `maxWaitMs`, and it asks first about
 * the repositories the cache has never read, each group in name order. What it read is in the cache, so the
 * next night starts with the repositories this one did not reach, and re-reads the others with conditional
 * requests that cost nothing when they did not change. A repository not asked because the budget was spent
 * keeps its cached facts (last night's measurement, never an invented one) but counts as not enriched.
 */
import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { isGitHubOwner, isGitHubRepoName, type GitHubFacts } from '../scoring/facts.js';
import { mapBounded } from './bounded.js';
import { PipelineError, printable } from './errors.js';
import { ENDPOINT_ROUTES, factsFromAnswer, gitHubFacts, type Endpoint } from './github-answers.js';
import { readBounded } from './http-json.js';

export const GITHUB_API_URL = 'https://api.github.com';

/** What the cache keeps per request path: the answer's ETag and the facts made from it. */
export interface CachedAnswer {
  etag: string;
  facts: unknown;
}

export interface EnrichOptions {
  baseUrl: string;
  token?: string | undefined;
  /** The longest wait for a rate limit's reset (or a secondary limit's Retry-After) the run accepts. */
  maxWaitMs: number;
  timeoutMs: number;
  /** Repositories asked about at once. */
  concurrency: number;
  /** Attempts at the participation statistics while GitHub answers 202 (still computing). */
  participationAttempts: number;
  participationDelayMs: number;
  /** Retries of a network error or 5xx (the retry plugin), and its base delay (squared backoff). */
  retries: number;
  retryBaseMs: number;
  /**
   * Requests of the hour's budget left to other users of the token: at or below it the run stops asking when
   * the reset is past `maxWaitMs` (and waits for the reset when it is not), counting the requests in flight
   * as spent. Default 0.
   */
  reserve?: number;
  /** Request path → cached answer; read and updated in place. */
  cache: Map<string, CachedAnswer>;
  log?: (line: string) => void;
  /** Called after each repository, with how many are done of how many (a terminal shows a progress line). */
  progress?: (done: number, total: number) => void;
}

export interface RepositoryOutcome {
  /** Enriched: every endpoint answered (200, 304, 404, or 202 until the attempts ran out). */
  enriched: boolean;
  facts: GitHubFacts | null;
  notFound: boolean;
  /** Every answer was a 304. */
  unchanged: boolean;
  /** Why it was not enriched. */
  reason?: string;
}

export interface EnrichResult {
  /** By `owner/repo`, lower-cased. */
  outcomes: Map<string, RepositoryOutcome>;
  requests: number;
  notModified: number;
  /** Why the run stopped asking GitHub before the end, if it did. */
  stopped?: string;
}

type Answer =
  | { kind: 'facts'; facts: unknown; fresh: boolean }
  | { kind: 'none'; notFound: boolean }
  | { kind: 'failed'; reason: string; cached?: unknown };

const ThrottledOctokit = Octokit.plugin(throttling, retry);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const NO_BODY = new Set([101, 204, 205, 304]);

interface ErrorLike {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | undefined> };
}

/** The cache's key of an endpoint's answer for one repository. */
const cacheKey = (endpoint: Endpoint, owner: string, repo: string) =>
  ENDPOINT_ROUTES[endpoint].replace('{owner}', owner).replace('{repo}', repo);

/**
 * The order a night asks in: the repositories the cache has never read first, then the others, each group in
 * the order of their lower-cased `owner/repo`, so that a night stopped by the budget is continued, not
 * restarted, by the next.
 */
export function readingOrder<T extends { owner: string; repo: string }>(
  repositories: ReadonlyArray<T>,
  cache: ReadonlyMap<string, CachedAnswer>,
): T[] {
  const keyed = repositories.map((repository) => ({
    repository,
    key: `${repository.owner}/${repository.repo}`.toLowerCase(),
    read: cache.has(cacheKey('repository', repository.owner, repository.repo)),
  }));
  keyed.sort((a, b) => (a.read !== b.read ? (a.read ? 1 : -1) : a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map(({ repository }) => repository);
}

export async function enrich(
  repositories: ReadonlyArray<{ owner: string; repo: string }>,
  options: EnrichOptions,
): Promise<EnrichResult> {
  const state = { requests: 0, notModified: 0, stopped: undefined as string | undefined };
  const log = options.log ?? (() => {});
  const reserve = options.reserve ?? 0;
  /** The rate limit as GitHub's last answer gave it. */
  let budget: { remaining: number; resetMs: number } | undefined;
  /** The reset all workers wait for once the budget is down to the reserve (when that is within the wait). */
  let waitingForReset: Promise<void> | undefined;
  let inFlight = 0;

  /** Before each request: stop, or wait for the reset, once the budget is down to the reserve. */
  async function withinBudget(): Promise<void> {
    // Requests in flight will each take one more of what GitHub's last answer said was left.
    while (state.stopped === undefined && budget !== undefined && budget.remaining - inFlight <= reserve) {
      const waitMs = budget.resetMs - Date.now();
      if (waitMs > options.maxWaitMs) {
        state.stopped = `GitHub's rate limit is down to ${budget.remaining} requests (the reserve is ${reserve}) and resets in ${Math.ceil(waitMs / 1000)} s, past --max-wait (${Math.round(options.maxWaitMs / 1000)} s)`;
        return;
      }
      if (waitingForReset === undefined) {
        log(
          `GitHub's rate limit is down to the reserve of ${reserve}; waiting ${Math.ceil(waitMs / 1000)} s for its reset`,
        );
        waitingForReset = sleep(Math.max(waitMs, 0) + 1000).then(() => {
          budget = undefined;
          waitingForReset = undefined;
        });
      }
      await waitingForReset;
    }
  }
  // Buffers each body, so a connection closed mid-answer is a network error the retry plugin retries.
  const countingFetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    state.requests++;
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
    if (response.redirected) state.requests++;
    if (response.status === 304) state.notModified++;
    const remaining = Number(response.headers.get('x-ratelimit-remaining') ?? Number.NaN);
    const reset = Number(response.headers.get('x-ratelimit-reset') ?? Number.NaN);
    if (Number.isInteger(remaining) && Number.isInteger(reset)) budget = { remaining, resetMs: reset * 1000 };
    const body = await readBounded(response);
    const { status, statusText, headers } = response;
    return new Response(NO_BODY.has(status) ? null : (body as unknown as BodyInit), { status, statusText, headers });
  };
  const withinWait = (seconds: number, retryCount: number) => retryCount < 2 && seconds * 1000 <= options.maxWaitMs;
  const octokit = new ThrottledOctokit({
    baseUrl: options.baseUrl,
    ...(options.token ? { auth: options.token } : {}),
    userAgent: 'mcp-trust-score-rescore',
    request: { fetch: countingFetch },
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    retry: {
      retries: options.retries,
      retryAfterBaseValue: options.retryBaseMs,
      doNotRetry: [304, 400, 401, 403, 404, 410, 422, 429, 451],
    },
    throttle: {
      onRateLimit: (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) => {
        if (withinWait(retryAfter, retryCount)) {
          log(`GitHub's rate limit is spent; waiting ${retryAfter} s for its reset`);
          return true;
        }
        state.stopped ??= `GitHub's rate limit is spent and resets in ${retryAfter} s, past --max-wait (${Math.round(options.maxWaitMs / 1000)} s)`;
        return false;
      },
      onSecondaryRateLimit: (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) => {
        if (withinWait(retryAfter, retryCount)) {
          log(`GitHub's secondary rate limit; waiting ${retryAfter} s as its Retry-After asks`);
          return true;
        }
        state.stopped ??= `GitHub's secondary rate limit asks to wait ${retryAfter} s, past --max-wait (${Math.round(options.maxWaitMs / 1000)} s)`;
        return false;
      },
    },
  });

  async function ask(endpoint: Endpoint, owner: string, repo: string): Promise<Answer> {
    const path = cacheKey(endpoint, owner, repo);
    const cached = options.cache.get(path);
    for (let attempt = 1; ; attempt++) {
      await withinBudget();
      if (state.stopped !== undefined) {
        return { kind: 'failed', reason: state.stopped, ...(cached ? { cached: cached.facts } : {}) };
      }
      inFlight++;
      try {
        const response = await octokit
          .request(ENDPOINT_ROUTES[endpoint], { owner, repo, headers: cached ? { 'if-none-match': cached.etag } : {} })
          .finally(() => inFlight--);
        if ((response.status as number) === 202) {
          if (attempt < options.participationAttempts) {
            await sleep(options.participationDelayMs);
            continue;
          }
          return { kind: 'none', notFound: false }; // still computing: unknown, as the method treats it
        }
        const made = factsFromAnswer(endpoint, response.data);
        if ('error' in made) return { kind: 'failed', reason: `GitHub answered ${path} with ${made.error}` };
        const etag = response.headers.etag;
        if (typeof etag === 'string' && etag !== '') options.cache.set(path, { etag, facts: made.facts });
        else options.cache.delete(path);
        return { kind: 'facts', facts: made.facts, fresh: true };
      } catch (error) {
        const e = error as ErrorLike;
        if (e.status === 304 && cached) return { kind: 'facts', facts: cached.facts, fresh: false };
        if (e.status === 404) {
          options.cache.delete(path);
          return { kind: 'none', notFound: true };
        }
        if (e.status === 401) {
          state.stopped ??= 'GitHub refused the token';
          throw new PipelineError(`GitHub refused the token (401 on ${path}): ${printable(e.message ?? '')}`);
        }
        const limited =
          e.status === 429 ||
          (e.status === 403 &&
            (e.response?.headers?.['x-ratelimit-remaining'] === '0' || /secondary rate/i.test(e.message ?? '')));
        if (limited) state.stopped ??= `GitHub's rate limit answered ${path} with ${e.status}`;
        return {
          kind: 'failed',
          reason: `GitHub answered ${path} with ${e.status ?? 'an error'}: ${printable(e.message ?? '', 120)}`,
        };
      }
    }
  }

  async function one(owner: string, repo: string): Promise<RepositoryOutcome> {
    // Names become path segments of token-carrying requests: anything GitHub could not have named is never asked.
    if (!isGitHubOwner(owner) || !isGitHubRepoName(repo)) {
      return { enriched: true, facts: null, notFound: true, unchanged: false };
    }
    const endpoints: Endpoint[] = ['repository', 'community', 'participation'];
    const answers = await Promise.all(endpoints.map((endpoint) => ask(endpoint, owner, repo)));
    const parts: Partial<Record<Endpoint, unknown>> = {};
    answers.forEach((answer, index) => {
      if (answer.kind === 'facts') parts[endpoints[index]!] = answer.facts;
      else if (answer.kind === 'failed' && answer.cached !== undefined) parts[endpoints[index]!] = answer.cached;
    });
    const failed = answers.find((answer) => answer.kind === 'failed');
    const notFound = answers[0]?.kind === 'none' && answers[0].notFound;
    const unchanged = answers.every((answer) => answer.kind === 'facts' && !answer.fresh);
    if (failed) {
      // What did come back still counts; with nothing at all the method has no GitHub data for it.
      const facts = Object.keys(parts).length > 0 ? gitHubFacts(owner, parts) : null;
      return { enriched: false, facts, notFound: false, unchanged: false, reason: failed.reason };
    }
    return { enriched: true, facts: gitHubFacts(owner, parts), notFound, unchanged };
  }

  const outcomes = new Map<string, RepositoryOutcome>();
  await mapBounded(
    readingOrder(repositories, options.cache),
    options.concurrency,
    async ({ owner, repo }) => void outcomes.set(`${owner}/${repo}`.toLowerCase(), await one(owner, repo)),
    options.progress,
  );
  return {
    outcomes,
    requests: state.requests,
    notModified: state.notModified,
    ...(state.stopped ? { stopped: state.stopped } : {}),
  };
}
