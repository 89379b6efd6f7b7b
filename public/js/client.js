// The API client.
import { updateQuota } from './notices.js';
import { API_BASE, CLIENT_CACHE_MS, KEY_STORAGE } from './words.js';

export class ApiFailure extends Error {
  /**
   * @param {number} status 0 when no HTTP answer came
   * @param {string} code the API's error code, or 'no_key' / 'network'
   * @param {string} message
   * @param {{ reset?: number, retryAfter?: number }} [timing]
   */
  constructor(status, code, message, timing = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.reset = timing.reset;
    this.retryAfter = timing.retryAfter;
  }
}

export const state = {
  key: readStoredKey(),
  /** @type {Map<string, { at: number, body: any }>} */
  cache: new Map(),
  /** @type {any} */
  doc: null,
  /** @type {string[]} */
  labels: [],
  list: { offset: 0, total: 0, limit: 25 },
  searchSeq: 0,
  listSeq: 0,
  serverSeq: 0,
  /** @type {string | null} */
  openName: null,
};

function readStoredKey() {
  try {
    return localStorage.getItem(KEY_STORAGE) ?? '';
  } catch {
    return '';
  }
}

/** @param {string} key */
export function storeKey(key) {
  try {
    if (key) localStorage.setItem(KEY_STORAGE, key);
    else localStorage.removeItem(KEY_STORAGE);
  } catch {
    // Storage may be disabled: the key then lasts for this page only.
  }
}

/**
 * GET an API path with the key. Resolves with the envelope; rejects with an ApiFailure.
 * @param {string} path e.g. `/servers`
 * @param {Record<string, string | number | undefined>} [params]
 */
export async function api(path, params = {}) {
  if (!state.key) throw new ApiFailure(0, 'no_key', 'No API key yet');
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== '') query.set(name, String(value));
  const search = query.toString();
  const url = `${API_BASE}${path}${search ? `?${search}` : ''}`;
  const hit = state.cache.get(url);
  if (hit && Date.now() - hit.at < CLIENT_CACHE_MS) return hit.body;

  let response;
  try {
    response = await fetch(url, { headers: { 'X-API-Key': state.key, Accept: 'application/json' }, cache: 'no-store' });
  } catch {
    throw new ApiFailure(0, 'network', 'The API cannot be reached. Is the server running?');
  }
  updateQuota(response);
  /** @type {any} */
  let body;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const error = body?.error ?? {};
    const reset = Number(response.headers.get('X-RateLimit-Reset'));
    const retryAfter = Number(response.headers.get('Retry-After'));
    throw new ApiFailure(
      response.status,
      String(error.code ?? 'http_error'),
      String(error.message ?? response.statusText),
      {
        reset: Number.isFinite(reset) && reset > 0 ? reset : undefined,
        retryAfter: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
      },
    );
  }
  state.cache.set(url, { at: Date.now(), body });
  return body;
}

/**
 * Ask for a new free-plan key (Get Access, `POST /v1/keys`; no key needed). Resolves with the answer's data,
 * `{ key, plan, daily_limit, label, created_at }`; rejects with an ApiFailure carrying the API's message.
 * The rate-limit headers of this answer are about issuing keys, not about a key's day, so the quota line
 * is left alone.
 * @param {string} label
 */
export async function requestKey(label) {
  let response;
  try {
    response = await fetch(`${API_BASE}/keys`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(label ? { label } : {}),
      cache: 'no-store',
    });
  } catch {
    throw new ApiFailure(0, 'network', 'The API cannot be reached. Is the server running?');
  }
  /** @type {any} */
  let body;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok || typeof body?.data?.key !== 'string') {
    const error = body?.error ?? {};
    throw new ApiFailure(
      response.status,
      String(error.code ?? 'http_error'),
      String(error.message ?? (response.ok ? 'The answer held no key.' : response.statusText)),
    );
  }
  return body.data;
}
