/**
 * Verified publishers. Neither source has a verified field per server; the scoring pipeline
 * (gigabrainobserver/mcp-scorecard, `VERIFIED_PUBLISHERS` in src/mcp_scorecard/config.py) keeps a hand-curated
 * allow-list of namespaces, and this is that list, so the service agrees with the scores it republishes.
 */

/** The namespaces whose servers are `verified_publisher: true`, compared exactly, as the pipeline does. */
export const VERIFIED_PUBLISHER_NAMESPACES: readonly string[] = [
  'com.microsoft',
  'io.github.apollographql',
  'io.github.bytedance',
  'io.github.firebase',
  'io.github.github',
  'io.github.googleapis',
  'io.github.netdata',
  'io.github.nrwl',
  'io.github.safedep',
  'io.github.upstash',
];

const verified = new Set(VERIFIED_PUBLISHER_NAMESPACES);

/** True exactly when `namespace` (the part of a name before the `/`) is on the allow-list. */
export function isVerifiedPublisher(namespace: string): boolean {
  return verified.has(namespace);
}
