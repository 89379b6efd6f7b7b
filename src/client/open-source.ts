/**
 * The trust source a process uses, chosen once at start from its environment: with `TRUST_API_URL` set, the
 * live API (which then needs `TRUST_API_KEY`); without it, the snapshot shipped inside the package, opened in
 * process. Every failure is an `McpConfigError` whose message is printed as is.
 */
import { OperatorError } from '../errors/operator-error.js';
import { createTrustApiClient } from './client.js';
import { KEY_HELP, liveApiConfigured, loadMcpConfig, McpConfigError } from './config.js';
import { openEmbeddedSource } from './embedded.js';
import type { TrustSource } from './trust-source.js';

export interface SourceSettings {
  /** The snapshot shipped with the package (`embedded-snapshot/` at its root). */
  embeddedDir: string;
  env?: Record<string, string | undefined>;
  /** How this program's users set a key, for the message when the live API is chosen without one. */
  keyHelp?: string;
}

/** The live API when `TRUST_API_URL` is set, else the embedded snapshot; an McpConfigError when neither can be used. */
export async function openTrustSource({
  embeddedDir,
  env = process.env,
  keyHelp = KEY_HELP,
}: SourceSettings): Promise<TrustSource> {
  if (liveApiConfigured(env)) return createTrustApiClient(loadMcpConfig(env, keyHelp));
  try {
    return await openEmbeddedSource(embeddedDir);
  } catch (error) {
    // The loader's one line says which file is missing or damaged (its hash); a bug keeps its stack.
    if (!(error instanceof OperatorError)) throw error;
    throw new McpConfigError(
      `the offline snapshot shipped with mcp-trust-score cannot be read (${error.message}); reinstall the ` +
        'package, or set TRUST_API_URL and TRUST_API_KEY to use the live API',
    );
  }
}
