/**
 * The service's configuration: the environment, validated once with zod at start. `npm start`, the key CLI
 * and the Vercel functions all read it through `loadConfig`, so a variable means the same thing everywhere.
 * A bad value is one clear line (`ConfigError`), never a stack trace or a silent default.
 */
import path from 'node:path';
import * as z from 'zod';
import { DEFAULT_STALE_AFTER_DAYS, STALE_AFTER_DAYS_RANGE } from '../api/freshness.js';
import { OperatorError } from '../errors/operator-error.js';
import { hashKey, MAX_PRESENTED_KEY_LENGTH } from '../keys/keys.js';
import { DenyFlagsSchema, type RegistryPolicy } from '../registry/policy.js';
import { MAX_TRUST_PROXY_HOPS } from '../gateway/client-address.js';
import { NotifyEnvShape, type NotifyConfig, notifyConfigOf } from './notify-config.js';

/** Where `npm start` and `npm run keys` keep issued keys (hashes only) when `STORE=memory`; gitignored. */
export const DEFAULT_KEYS_FILE = '.local/keys.json';

export const STORE_KINDS = ['memory', 'redis', 'upstash'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** An unset variable and one set to the empty string (`FOO=` in a .env file) both mean "not set". */
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/** Plain decimal digits only, so `PORT=3e3` or `FREE_DAILY_LIMIT=1.5` is an error rather than a surprise. */
const integerText = (name: string, min: number, max: number) =>
  optionalText.pipe(
    z
      .string()
      .regex(/^\d{1,10}$/, { error: `${name} must be a whole number from ${min} to ${max}` })
      .transform(Number)
      .pipe(
        z
          .number()
          .min(min, { error: `${name} must be a whole number from ${min} to ${max}` })
          .max(max, { error: `${name} must be a whole number from ${min} to ${max}` }),
      )
      .optional(),
  );

const EnvSchema = z.object({
  HOST: optionalText,
  /** 0 asks the system for a free port (the printed address shows which); used by the end-to-end tests. */
  PORT: integerText('PORT', 0, 65_535),
  SNAPSHOT_DIR: optionalText,
  API_KEYS: optionalText,
  FREE_DAILY_LIMIT: integerText('FREE_DAILY_LIMIT', 1, 1_000_000_000),
  STORE: optionalText.pipe(
    z.enum(STORE_KINDS, { error: `STORE must be one of: ${STORE_KINDS.join(', ')}` }).optional(),
  ),
  REDIS_URL: optionalText,
  REDIS_PREFIX: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9:_.-]{1,64}$/, {
        error: 'REDIS_PREFIX must be 1 to 64 letters, digits and : _ . - (default mts:)',
      })
      .optional(),
  ),
  UPSTASH_REDIS_REST_URL: optionalText,
  UPSTASH_REDIS_REST_TOKEN: optionalText,
  KEYS_FILE: optionalText,
  SELF_SERVICE_KEYS: optionalText.pipe(
    z.enum(['on', 'off'], { error: 'SELF_SERVICE_KEYS must be on or off' }).optional(),
  ),
  SELF_SERVICE_KEYS_PER_DAY: integerText('SELF_SERVICE_KEYS_PER_DAY', 1, 1000),
  SITE_ORIGIN: optionalText.pipe(
    z
      .string()
      .refine(
        (text) => {
          try {
            const url = new URL(text);
            return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === text;
          } catch {
            return false;
          }
        },
        {
          error:
            'SITE_ORIGIN must be an origin: scheme and host, with a port if any, and nothing after (https://example.com)',
        },
      )
      .optional(),
  ),
  TRUST_PROXY: optionalText.pipe(z.enum(['true', 'false'], { error: 'TRUST_PROXY must be true or false' }).optional()),
  TRUST_PROXY_HOPS: integerText('TRUST_PROXY_HOPS', 0, MAX_TRUST_PROXY_HOPS),
  REGISTRY_MIN_SCORE: integerText('REGISTRY_MIN_SCORE', 0, 100),
  REGISTRY_DENY_FLAGS: optionalText.pipe(DenyFlagsSchema.optional()),
  REGISTRY_REQUIRE_VERIFIED: optionalText.pipe(
    z.enum(['true', 'false'], { error: 'REGISTRY_REQUIRE_VERIFIED must be true or false' }).optional(),
  ),
  UNKNOWN_IDENTIFIER_COUNTING: optionalText.pipe(
    z.enum(['on', 'off'], { error: 'UNKNOWN_IDENTIFIER_COUNTING must be on or off' }).optional(),
  ),
  STALE_AFTER_DAYS: integerText('STALE_AFTER_DAYS', STALE_AFTER_DAYS_RANGE.min, STALE_AFTER_DAYS_RANGE.max),
  ...NotifyEnvShape,
});

/** The validated configuration. Plain keys from `API_KEYS` are already hashed: no plain key is kept. */
export interface Config {
  host: string;
  port: number;
  /** The snapshot to serve; undefined means the default snapshot (built from `data/` when stale). */
  snapshotDir: string | undefined;
  /** SHA-256 hex hashes of the `API_KEYS` keys, accepted as free-plan keys. */
  apiKeyHashes: readonly string[];
  freeDailyLimit: number;
  store: StoreKind;
  redisUrl: string | undefined;
  /** Prefix of every key the Redis-backed stores write (`REDIS_PREFIX`); undefined means `mts:`. */
  redisPrefix: string | undefined;
  upstashUrl: string | undefined;
  upstashToken: string | undefined;
  /** Absolute path of the memory store's key file. */
  keysFile: string;
  /** Get Access: whether anyone may be issued a key, how many per address and day, how many proxies append to X-Forwarded-For. */
  selfService: { enabled: boolean; perDay: number; trustProxyHops: number };
  /** The origin of a site on another host whose pages may call Get Access (`SITE_ORIGIN`). */
  siteOrigin: string | undefined;
  /** Which servers the registry feed (`/v0.1`) holds: `REGISTRY_MIN_SCORE`, `REGISTRY_DENY_FLAGS`, `REGISTRY_REQUIRE_VERIFIED`. */
  registryPolicy: RegistryPolicy;
  /** Days after its newest score at which health reports the data stale and itself `degraded`. */
  staleAfterDays: number;
  /**
   * Whether lookups and checks count, in the store, the packages and remote URLs the snapshot does not know
   * (`UNKNOWN_IDENTIFIER_COUNTING`, default on): the identifier alone, for the night to look for.
   */
  countUnknown: boolean;
  /** Webhooks (`WEBHOOK_SECRETS_KEY`, `WEBHOOKS_*`): off, with a 503 on their routes, without a secrets key. */
  notify: NotifyConfig;
}

/** A configuration error: its message is one line, meant to be printed as is. */
export class ConfigError extends OperatorError {
  override name = 'ConfigError';
}

/** Default free-plan limit of the decisions (section 1). */
export const DEFAULT_FREE_DAILY_LIMIT = 100;

/**
 * `TRUST_PROXY_HOPS`, or the older `TRUST_PROXY=true`, which means one proxy (the rightmost address of
 * `X-Forwarded-For`, what one appending proxy writes). Both set and disagreeing is an error, not a guess.
 */
function trustProxyHops(hops: number | undefined, trustProxy: 'true' | 'false' | undefined): number {
  const fromFlag = trustProxy === undefined ? undefined : trustProxy === 'true' ? 1 : 0;
  if (hops !== undefined && fromFlag !== undefined && hops !== fromFlag) {
    throw new ConfigError(
      `Invalid configuration: TRUST_PROXY=${trustProxy} and TRUST_PROXY_HOPS=${hops} disagree; set TRUST_PROXY_HOPS only`,
    );
  }
  return hops ?? fromFlag ?? 0;
}

/**
 * Read and validate the configuration from `env` (default `process.env`). Throws `ConfigError` with a
 * single line naming every bad variable. Never includes a key or a token in a message.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const vars = parsed.data;
  const store = vars.STORE ?? 'memory';
  if (store === 'redis' && !vars.REDIS_URL) throw new ConfigError('Invalid configuration: STORE=redis needs REDIS_URL');
  if (store === 'upstash' && (!vars.UPSTASH_REDIS_REST_URL || !vars.UPSTASH_REDIS_REST_TOKEN)) {
    throw new ConfigError(
      'Invalid configuration: STORE=upstash needs UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN',
    );
  }

  const plainKeys = (vars.API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  // A key that can never be presented is refused now, not discovered as a 401 later.
  plainKeys.forEach((key, index) => {
    if (key.length > MAX_PRESENTED_KEY_LENGTH) {
      throw new ConfigError(
        `Invalid configuration: API_KEYS entry ${index + 1} is ${key.length} characters long; a key has at most ${MAX_PRESENTED_KEY_LENGTH}`,
      );
    }
    if (!/^[\x21-\x7e]+$/.test(key)) {
      throw new ConfigError(
        `Invalid configuration: API_KEYS entry ${index + 1} holds a character a header cannot carry; keys are printable ASCII without spaces`,
      );
    }
  });

  return {
    host: vars.HOST ?? '127.0.0.1',
    port: vars.PORT ?? 3000,
    snapshotDir: vars.SNAPSHOT_DIR === undefined ? undefined : path.resolve(vars.SNAPSHOT_DIR),
    apiKeyHashes: [...new Set(plainKeys.map(hashKey))],
    freeDailyLimit: vars.FREE_DAILY_LIMIT ?? DEFAULT_FREE_DAILY_LIMIT,
    store,
    redisUrl: vars.REDIS_URL,
    redisPrefix: vars.REDIS_PREFIX,
    upstashUrl: vars.UPSTASH_REDIS_REST_URL,
    upstashToken: vars.UPSTASH_REDIS_REST_TOKEN,
    keysFile: path.resolve(vars.KEYS_FILE ?? DEFAULT_KEYS_FILE),
    selfService: {
      enabled: (vars.SELF_SERVICE_KEYS ?? 'on') === 'on',
      perDay: vars.SELF_SERVICE_KEYS_PER_DAY ?? 3,
      trustProxyHops: trustProxyHops(vars.TRUST_PROXY_HOPS, vars.TRUST_PROXY),
    },
    siteOrigin: vars.SITE_ORIGIN,
    registryPolicy: {
      minScore: vars.REGISTRY_MIN_SCORE ?? 0,
      denyFlags: vars.REGISTRY_DENY_FLAGS ?? [],
      requireVerified: vars.REGISTRY_REQUIRE_VERIFIED === 'true',
    },
    staleAfterDays: vars.STALE_AFTER_DAYS ?? DEFAULT_STALE_AFTER_DAYS,
    countUnknown: (vars.UNKNOWN_IDENTIFIER_COUNTING ?? 'on') === 'on',
    notify: notifyConfigOf(vars),
  };
}
