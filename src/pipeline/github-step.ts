/**
 * The night's GitHub step: the repositories enriched with the cache's ETags (the cache is written whatever
 * happens to the night), and the run refused when more of them than `--max-unenriched` allows went unread.
 * What comes back is the outcomes, in a file of the night's (`OutcomeFile`), and the counts: the cache itself is
 * let go as the step ends and the outcomes' facts are on disk, so the night does not hold every answer's ETag,
 * path and facts while it scores, joins and writes.
 */
import { readGitHubCache, writeGitHubCache } from './cache.js';
import { PipelineError } from './errors.js';
import { enrich, type EnrichOptions, type RepositoryOutcome } from './github.js';
import { OutcomeFile } from './outcome-file.js';

export interface GitHubStep {
  /** By `owner/repo`, lower-cased; the caller removes the file when the night ends. */
  outcomes: OutcomeFile;
  counts: {
    repositories: number;
    enriched: number;
    notFound: number;
    unchangedRepositories: number;
    unenriched: number;
    githubRequests: number;
    notModified: number;
  };
  stopped?: string;
}

export interface GitHubStepOptions {
  githubApiUrl: string;
  cache: string;
  token?: string | undefined;
  maxUnenriched: number;
  github: Omit<EnrichOptions, 'baseUrl' | 'token' | 'cache' | 'log'>;
  progress?: (done: number, total: number) => void;
  log?: (line: string) => void;
}

export async function githubStep(
  options: GitHubStepOptions,
  repositories: ReadonlyArray<{ owner: string; repo: string }>,
  notes: string[],
): Promise<GitHubStep> {
  const githubCache = readGitHubCache(options.cache, options.githubApiUrl);
  if (githubCache.note) notes.push(githubCache.note);
  let enriched;
  try {
    enriched = await enrich(repositories, {
      ...options.github,
      baseUrl: options.githubApiUrl,
      token: options.token,
      cache: githubCache.answers,
      log: options.log ?? (() => {}),
      ...(options.progress ? { progress: options.progress } : {}),
    });
  } finally {
    // What was fetched is kept for the next run, whatever happens to this one.
    writeGitHubCache(options.cache, options.githubApiUrl, githubCache.answers);
  }
  let unenriched = 0;
  let notFound = 0;
  let unchanged = 0;
  let firstUnenriched: RepositoryOutcome | undefined;
  const outcomes = OutcomeFile.write(options.cache, enriched.outcomes, (outcome) => {
    if (!outcome.enriched) {
      unenriched++;
      firstUnenriched ??= outcome;
    }
    if (outcome.notFound) notFound++;
    if (outcome.unchanged) unchanged++;
  });
  const enrichedCount = enriched.outcomes.size - unenriched;
  enriched.outcomes.clear();
  const share = repositories.length === 0 ? 0 : unenriched / repositories.length;
  if (share > options.maxUnenriched) {
    outcomes.remove();
    const why = enriched.stopped ?? firstUnenriched?.reason ?? 'unknown';
    throw new PipelineError(
      `${unenriched} of ${repositories.length} GitHub repositories could not be enriched ` +
        `(${(share * 100).toFixed(1)}%, more than --max-unenriched ${options.maxUnenriched}); nothing written; first cause: ${why}`,
    );
  }
  return {
    outcomes,
    counts: {
      repositories: repositories.length,
      enriched: enrichedCount,
      notFound,
      unchangedRepositories: unchanged,
      unenriched,
      githubRequests: enriched.requests,
      notModified: enriched.notModified,
    },
    ...(enriched.stopped ? { stopped: enriched.stopped } : {}),
  };
}
