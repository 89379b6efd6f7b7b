/**
 * The trust source a process uses, chosen once at start from its environment: with `TRUST_API_URL` set, the
 * live API (which then needs `TRUST_API_KEY`); without it (or offline), the newest verified snapshot held,
 * opened in process: the one packed in the package, or a newer one `mcp-trust-score update` installed in the
 * cache (`src/update/snapshot-cache.ts`). When that is older than `TRUST_SNAPSHOT_MAX_AGE_DAYS` (7), a
 * bundle URL is known and the package trusts a signing key, one update is tried first within `TRUST_SNAPSHOT_UPDATE_TIMEOUT_MS` (3000); if it
 * fails the process goes on with what it holds and says so with the data's age. `--offline` or
 * `TRUST_OFFLINE=1` never touches the network. Every failure is an `McpConfigError` whose message is printed
 * as is.
 */
import { OperatorError } from '../errors/operator-error.js';
import { cacheRoot, type HeldSnapshot, newestHeld, packedSnapshot } from '../update/snapshot-cache.js';
import { snapshotUrl } from '../update/snapshot-url.js';
import { BundleError, trustedKeys } from '../update/verify-bundle.js';
import { createTrustApiClient } from './client.js';
import { KEY_HELP, liveApiConfigured, loadMcpConfig, McpConfigError } from './config.js';
import { openEmbeddedSource } from './embedded.js';
import type { TrustSource } from './trust-source.js';

type Env = Record<string, string | undefined>;

export interface SourceSettings {
  /** The snapshot shipped with the package (`embedded-snapshot/` at its root). */
  embeddedDir: string;
  env?: Env;
  /** How this program's users set a key, for the message when the live API is chosen without one. */
  keyHelp?: string;
  /** `--offline`: no network at all (the live API and updates included). `TRUST_OFFLINE=1` does the same. */
  offline?: boolean;
  nowMs?: number;
}

/** `TRUST_OFFLINE` set to 1 or true. */
export const offlineByEnv = (env: Env) => env.TRUST_OFFLINE === '1' || env.TRUST_OFFLINE === 'true';

/** A whole number setting in bounds, or its default; an McpConfigError naming it otherwise. */
function numberSetting(env: Env, name: string, fallback: number, max: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  if (!/^\d{1,7}$/.test(text) || Number(text) > max)
    throw new McpConfigError(`${name} must be a whole number from 0 to ${max}`);
  return Number(text);
}

/** The live API when `TRUST_API_URL` is set (and not offline), else the newest snapshot held; an McpConfigError when neither can be used. */
export async function openTrustSource({
  embeddedDir,
  env = process.env,
  keyHelp = KEY_HELP,
  offline = false,
  nowMs = Date.now(),
}: SourceSettings): Promise<TrustSource> {
  offline ||= offlineByEnv(env);
  if (!offline && liveApiConfigured(env)) return createTrustApiClient(loadMcpConfig(env, keyHelp));
  const maxAgeDays = numberSetting(env, 'TRUST_SNAPSHOT_MAX_AGE_DAYS', 7, 3650);
  const timeoutMs = numberSetting(env, 'TRUST_SNAPSHOT_UPDATE_TIMEOUT_MS', 3000, 600_000);
  let chosen: { snapshot: HeldSnapshot; note?: string } | undefined;
  const packed = packedSnapshot(embeddedDir);
  if (packed !== undefined) {
    let keys;
    try {
      keys = trustedKeys(env);
    } catch (error) {
      if (error instanceof BundleError) throw new McpConfigError(error.message);
      throw error;
    }
    const root = cacheRoot(env);
    const held = newestHeld(packed, root, keys, nowMs);
    chosen = { snapshot: held.snapshot, ...(held.problem === undefined ? {} : { note: `${held.problem}, not used` }) };
    const url = snapshotUrl(keys, env);
    const old = nowMs - Date.parse(held.snapshot.scoredAt) > maxAgeDays * 86_400_000;
    // With no trusted key nothing downloaded could be verified, so no update is tried (no connection).
    if (!offline && old && url !== undefined && keys.keys.length > 0) {
      // Loaded only here: the download's agents are no part of a check on fresh data.
      const { downloadRules } = await import('../update/download.js');
      const { updateSnapshot } = await import('../update/update.js');
      try {
        await updateSnapshot({ url, root, keys, rules: downloadRules(env), timeoutMs, held: held.snapshot, nowMs });
        chosen = { snapshot: newestHeld(packed, root, keys, nowMs).snapshot };
      } catch (error) {
        if (!(error instanceof BundleError)) throw error;
        chosen = { snapshot: held.snapshot, note: `update failed (${error.message}); using the held data` };
      }
    }
  }
  if (chosen !== undefined && chosen.snapshot.held === 'cached') {
    try {
      return await openEmbeddedSource(chosen.snapshot.dir, {
        held: 'cached',
        ...(chosen.note ? { note: chosen.note } : {}),
      });
    } catch (error) {
      if (!(error instanceof OperatorError)) throw error;
      chosen = { snapshot: packed!, note: `the cached snapshot cannot be read (${error.message}), not used` };
    }
  }
  try {
    return await openEmbeddedSource(embeddedDir, { held: 'packed', ...(chosen?.note ? { note: chosen.note } : {}) });
  } catch (error) {
    // The loader's one line says which file is missing or damaged (its hash); a bug keeps its stack.
    if (!(error instanceof OperatorError)) throw error;
    throw new McpConfigError(
      `the offline snapshot shipped with mcp-trust-score cannot be read (${error.message}); reinstall the ` +
        'package, or set TRUST_API_URL and TRUST_API_KEY to use the live API',
    );
  }
}
