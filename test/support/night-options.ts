/**
 * The options of a night (`rescore`) against the registry and GitHub stand-ins of `test/support/`: a token
 * the GitHub stand-in accepts, short waits (the stand-ins answer at once), the output and the cache in `dir`.
 * A test adds the steps it is about (packages, probes, advisories, catalog).
 */
import path from 'node:path';
import type { RescoreOptions } from '../../src/pipeline/rescore.js';

/** Retries and waits for the stand-ins: two retries 5 ms apart, a Retry-After honoured up to 2 s. */
export const STAND_IN_POLICY = { timeoutMs: 5000, retries: 2, backoffMs: 5, maxRetryAfterMs: 2000 };

export function standInNight(options: {
  registryUrl: string;
  githubUrl: string;
  asOf: string;
  dir: string;
  registryPolicy?: RescoreOptions['registryPolicy'];
}): RescoreOptions {
  return {
    registryUrl: options.registryUrl,
    githubApiUrl: options.githubUrl,
    asOf: options.asOf,
    out: path.join(options.dir, 'out'),
    cache: path.join(options.dir, 'cache'),
    token: 't',
    maxUnenriched: 0.1,
    registryPolicy: options.registryPolicy ?? STAND_IN_POLICY,
    github: {
      maxWaitMs: 1000,
      timeoutMs: 5000,
      concurrency: 2,
      participationAttempts: 2,
      participationDelayMs: 5,
      retries: 1,
      retryBaseMs: 5,
    },
  };
}
