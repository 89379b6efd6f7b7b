/**
 * `mcp-trust-score update [--from URL]`: fetch the published signed snapshot bundle, verify it and install it in
 * the cache (`src/update/update.ts`), for `check` and the MCP server to use offline. One line either way:
 * "updated to <id>, scored <date>" (exit 0), or why not (exit 2, the held snapshot untouched).
 */
import { parseArgs } from 'node:util';
import { downloadRules } from '../update/download.js';
import { cacheRoot, newestHeld, packedSnapshot } from '../update/snapshot-cache.js';
import { snapshotUrl } from '../update/snapshot-url.js';
import { updateSnapshot } from '../update/update.js';
import { BundleError, NO_TRUSTED_KEY, trustedKeys } from '../update/verify-bundle.js';
import { printable } from '../model/printable.js';

export const UPDATE_USAGE = `usage: mcp-trust-score update [--from URL]

Downloads the newest signed snapshot of the trust scores (default: the published one; TRUST_SNAPSHOT_URL
overrides it, --from overrides both), checks its signature against the keys shipped in this package and every
file's SHA-256, and installs it in the cache folder (MCP_TRUST_SCORE_CACHE, else the platform's cache folder),
keeping the previous one. check and the MCP server then answer from it, offline. An older snapshot than the
one held is refused. TRUST_SNAPSHOT_KEYS names a keys file whose keys are trusted in addition to the shipped
ones (a deployment of one's own). TRUST_SNAPSHOT_UPDATE_TIMEOUT_MS bounds the whole download (default 60000).

Exit codes: 0 updated (or already current), 2 not updated (the held snapshot is untouched).`;

type Env = Readonly<Record<string, string | undefined>>;

/** The whole command; a BundleError (one line, exit 2) for anything that stops it. */
export async function updateCommand(
  argv: readonly string[],
  packedDir: string,
  env: Env = process.env,
): Promise<string> {
  const { values } = parseArgs({ args: [...argv], strict: true, options: { from: { type: 'string' } } });
  const keys = trustedKeys(env);
  // Said before any connection: nothing downloaded could be verified.
  if (keys.keys.length === 0) throw new BundleError(NO_TRUSTED_KEY);
  const url = snapshotUrl(keys, env, values.from);
  if (url === undefined) throw new BundleError('no snapshot URL is set: pass --from URL or set TRUST_SNAPSHOT_URL');
  const timeoutText = env.TRUST_SNAPSHOT_UPDATE_TIMEOUT_MS;
  if (timeoutText !== undefined && timeoutText !== '' && !/^\d{1,7}$/.test(timeoutText))
    throw new BundleError('TRUST_SNAPSHOT_UPDATE_TIMEOUT_MS must be a whole number of milliseconds');
  const packed = packedSnapshot(packedDir);
  if (packed === undefined)
    throw new BundleError('the snapshot packed in mcp-trust-score cannot be read; reinstall it');
  const root = cacheRoot(env);
  const { snapshot: held } = newestHeld(packed, root, keys);
  const result = await updateSnapshot({
    url,
    root,
    keys,
    rules: downloadRules(env),
    timeoutMs: timeoutText ? Number(timeoutText) : 60_000,
    held,
  });
  const date = result.scoredAt.slice(0, 10);
  return printable(
    result.outcome === 'updated'
      ? `updated to ${result.snapshotId}, scored ${date}`
      : `already at ${result.snapshotId}, scored ${date}`,
  );
}
