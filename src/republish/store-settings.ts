/**
 * The store settings of the night: the service's own (`STORE`, `REDIS_URL`, `REDIS_PREFIX`,
 * `UPSTASH_REDIS_REST_URL`, `UPSTASH_REDIS_REST_TOKEN`; src/service/config.ts), which the rescore step needs to
 * read the identifiers the gateway counted (docs/pipeline.md, "Unknown identifiers"). Taken out of the
 * republish's own environment before any child starts, and given to the rescore child alone: the test step must
 * never see them (the suite's Redis tests take `REDIS_URL` as the server to write their keys to), nor the build
 * or the deployment.
 */

/** The variables the service reads to choose and reach its store. */
export const STORE_SETTINGS = [
  'STORE',
  'REDIS_URL',
  'REDIS_PREFIX',
  'UPSTASH_REDIS_REST_URL',
  'UPSTASH_REDIS_REST_TOKEN',
] as const;

/** The store settings `env` holds (empty ones left out), deleted from `env`. */
export function takeStoreSettings(env: NodeJS.ProcessEnv): Record<string, string> {
  const taken: Record<string, string> = {};
  for (const name of STORE_SETTINGS) {
    const value = env[name];
    delete env[name];
    if (value !== undefined && value.trim() !== '') taken[name] = value;
  }
  return taken;
}
