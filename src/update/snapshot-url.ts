/** Where the signed snapshot bundle is fetched from (docs/snapshot.md). */
import type { TrustedKeys } from '../format/snapshot-bundle.js';

export const SNAPSHOT_URL_ENV = 'TRUST_SNAPSHOT_URL';

/** The bundle's URL: `--from`, else `TRUST_SNAPSHOT_URL`, else the published one the keys file names. */
export function snapshotUrl(
  keys: TrustedKeys,
  env: Readonly<Record<string, string | undefined>>,
  from?: string,
): string | undefined {
  if (from !== undefined) return from;
  const given = env[SNAPSHOT_URL_ENV];
  if (given !== undefined && given !== '') return given;
  return keys.bundle_url ?? undefined;
}
