// The API client.
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

/**
 * Announces every answer that speaks about the key's day, as an `answer` event whose `detail` is the Response,
 * so the quota line (notices.js) can follow it without the client importing the page (app.js connects them).
 */
export const answers = new EventTarget();

export const state = {
  key: readStoredKey(),
  /** @type {Map<string, { at: number, body: any }>} */
  cache: new Map(),
  /** @type {any} */
  doc: null,
  /** @type {string[]} */
  labels: [],
  /** The last `/v1/stats` answer's data: the flags and targets the list's filters know. @type {any} */
  stats: null,
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
 * One request to the API: the network failure, the quota line, the body and the API's error body turned into
 * one ApiFailure, the same way for every call the page makes.
 * @param {string} url
 * @param {RequestInit} init
 * @param {{ quota?: boolean }} [options] `quota: false` for an answer that is not about the key's day
 * @returns {Promise<any>} the envelope
 */
async function send(url, init, { quota = true } = {}) {
  let response;
  try {
    response = await fetch(url, { ...init, cache: 'no-store' });
  } catch {
    throw new ApiFailure(0, 'network', 'The API cannot be reached. Is the server running?');
  }
  if (quota) answers.dispatchEvent(new CustomEvent('answer', { detail: response }));
  /** @type {any} */
  let body;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok || body === null || typeof body !== 'object' || !('data' in body)) {
    const error = body?.error ?? {};
    const reset = Number(response.headers.get('X-RateLimit-Reset'));
    const retryAfter = Number(response.headers.get('Retry-After'));
    throw new ApiFailure(
      response.status,
      String(error.code ?? 'http_error'),
      String(error.message ?? (response.ok ? 'The answer held no data.' : response.statusText)),
      {
        reset: Number.isFinite(reset) && reset > 0 ? reset : undefined,
        retryAfter: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
      },
    );
  }
  return body;
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
  const body = await send(url, { headers: { 'X-API-Key': state.key, Accept: 'application/json' } });
  state.cache.set(url, { at: Date.now(), body });
  return body;
}

/**
 * POST a JSON body to an API path, with the key when the route needs one. Never cached. Resolves with the
 * envelope; rejects with an ApiFailure.
 * @param {string} path e.g. `/check`
 * @param {unknown} payload
 * @param {{ keyed?: boolean }} [options]
 */
export async function apiPost(path, payload, { keyed = true } = {}) {
  if (keyed && !state.key) throw new ApiFailure(0, 'no_key', 'No API key yet');
  /** @type {Record<string, string>} */
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (keyed) headers['X-API-Key'] = state.key;
  // A keyless answer's rate-limit headers are not about a key's day, so the quota line is left alone.
  return send(`${API_BASE}${path}`, { method: 'POST', headers, body: JSON.stringify(payload) }, { quota: keyed });
}

/**
 * Ask for a new free-plan key (Get Access, `POST /v1/keys`; no key needed). Resolves with the answer's data,
 * `{ key, plan, daily_limit, label, created_at }`; rejects with an ApiFailure carrying the API's message.
 * @param {string} label
 */
export async function requestKey(label) {
  const body = await apiPost('/keys', label ? { label } : {}, { keyed: false });
  if (typeof body.data?.key !== 'string') throw new ApiFailure(201, 'http_error', 'The answer held no key.');
  return body.data;
}
