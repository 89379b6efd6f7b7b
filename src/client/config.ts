/**
 * Where the MCP wrapper and the CLI get their answers, from three environment variables validated once with
 * zod at start-up: with no `TRUST_API_URL`, the snapshot shipped in the package (offline, no key); with it,
 * the live API, which then needs `TRUST_API_KEY` (a missing key is one clear line on stderr and a non-zero
 * exit, never a failure on the first call). Each caller says how its users set the key (`keyHelp`).
 */
import * as z from 'zod';

/** Where `npm start` serves the API by default (decisions, section 1: 127.0.0.1:3000), as an example. */
export const EXAMPLE_TRUST_API_URL = 'http://127.0.0.1:3000/v1';

/** Bound on one API call. An MCP client waits on the tool call meanwhile, so it stays well under a minute. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** What an MCP client's user does about a missing key; shared by the start-up message and the 401 advice. */
export const KEY_HELP =
  'Set TRUST_API_KEY in the "env" block of this server in your MCP client configuration ' +
  '(a key from `npm run keys -- create`, or the one `npm start` printed), then restart the server';

/** An unset variable and one set to the empty string (`FOO=` in an env block) both mean "not set". */
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const envSchema = (keyHelp: string) =>
  z.object({
    TRUST_API_KEY: optionalText.pipe(
      z
        .string({ error: `TRUST_API_KEY is not set. ${keyHelp}` })
        // A key is sent as a header value: a control character could never be a valid key.
        .regex(/^[\x21-\x7e]+$/, { error: 'TRUST_API_KEY must be printable ASCII without spaces' })
        .max(512, { error: 'TRUST_API_KEY is longer than any key the service issues' }),
    ),
    TRUST_API_URL: optionalText.pipe(
      z.url({ protocol: /^https?$/, error: `TRUST_API_URL must be an http(s) URL such as ${EXAMPLE_TRUST_API_URL}` }),
    ),
    TRUST_API_TIMEOUT_MS: optionalText.pipe(
      z
        .string()
        .regex(/^\d{1,6}$/, { error: 'TRUST_API_TIMEOUT_MS must be a whole number of milliseconds from 100 to 120000' })
        .transform(Number)
        .pipe(
          z
            .number()
            .min(100, { error: 'TRUST_API_TIMEOUT_MS must be a whole number of milliseconds from 100 to 120000' })
            .max(120_000, { error: 'TRUST_API_TIMEOUT_MS must be a whole number of milliseconds from 100 to 120000' }),
        )
        .default(DEFAULT_TIMEOUT_MS),
    ),
  });

/** The validated configuration. */
export interface McpConfig {
  /** The API key, sent as `X-API-Key`. Never logged, never part of a message. */
  apiKey: string;
  /** The API's base URL, ending in `/v1`, without a trailing slash. */
  baseUrl: string;
  timeoutMs: number;
}

/** A configuration error: its message is meant to be printed as is, one problem per line. */
export class McpConfigError extends Error {
  override readonly name = 'McpConfigError';
}

/**
 * Read the configuration from `env` (default `process.env`). Throws `McpConfigError` naming every bad
 * variable; no message ever contains the key itself.
 */
export function loadMcpConfig(
  env: Record<string, string | undefined> = process.env,
  keyHelp: string = KEY_HELP,
): McpConfig {
  const parsed = envSchema(keyHelp).safeParse(env);
  if (!parsed.success) {
    throw new McpConfigError(parsed.error.issues.map((issue) => issue.message).join('\n'));
  }
  const { TRUST_API_KEY, TRUST_API_URL, TRUST_API_TIMEOUT_MS } = parsed.data;
  return { apiKey: TRUST_API_KEY, baseUrl: apiBaseUrl(TRUST_API_URL), timeoutMs: TRUST_API_TIMEOUT_MS };
}

/**
 * The API's base URL from what a user wrote: the service's address with or without `/v1` (and any trailing
 * slash), so `https://trust.example.com` and `https://trust.example.com/v1/` both mean
 * `https://trust.example.com/v1`. A query or fragment is dropped: the client appends paths to the base.
 */
export function apiBaseUrl(url: string): string {
  const parsed = new URL(url);
  parsed.search = '';
  parsed.hash = '';
  const path = parsed.pathname.replace(/\/+$/, '');
  parsed.pathname = /\/v1$/i.test(path) ? path : `${path}/v1`;
  return parsed.toString().replace(/\/+$/, '');
}

/** Whether the live API is configured (`TRUST_API_URL` set); without it the tools answer offline. */
export function liveApiConfigured(env: Record<string, string | undefined> = process.env): boolean {
  return (env.TRUST_API_URL ?? '').trim() !== '';
}
