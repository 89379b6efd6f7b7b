// The words and constants of the site: the API base, limits, and what bands, flags, sub-scores and
// transports are called. Bands and flags come from the vocabulary the build writes (`vocabulary.js`).
import { BANDS, FLAGS } from '../vocabulary.js';

export const API_BASE = '/v1';
export const KEY_STORAGE = 'mcp-trust-score.api-key';
/** Answers are kept this long in the page, so browsing back and forth does not spend the daily quota. */
export const CLIENT_CACHE_MS = 10 * 60 * 1000;
export const SEARCH_DEBOUNCE_MS = 250;
export const SEARCH_MIN = 2;
export const SEARCH_LIMIT = 10;
export const EXAMPLE_SERVER = 'io.github.github/github-mcp-server';
export const SERVER_PLACEHOLDER =
  'Pick a server from the search or the list below to see its card: its trust score, sub-scores, flags, badges and how to install it.';

/** CSS keys of the trust bands, highest first: the order of `trust_label`'s enum in the OpenAPI document. */
export const BAND_KEYS = BANDS.map((band) => band.key);
/** The score range of each band, in the same order. */
export const BAND_RANGES = BANDS.map((band) => [band.min, band.max]);

/**
 * What flag `name` means, in words, as a sentence; undefined for a flag the vocabulary does not know.
 * @param {string} name
 */
export function flagMeaning(name) {
  const flag = FLAGS.find((known) => known.name === name);
  return flag === undefined ? undefined : `${flag.meaning.charAt(0).toUpperCase()}${flag.meaning.slice(1)}.`;
}

export const SUBSCORES = [
  ['provenance', 'Provenance', 'source, licence, publisher'],
  ['maintenance', 'Maintenance', 'recent, steady activity'],
  ['popularity', 'Popularity', 'stars, forks, watchers'],
  ['permissions', 'Permissions', 'transport, credentials, package'],
];

export const TRANSPORT_MEANINGS = {
  stdio: 'runs on your machine',
  'streamable-http': 'remote, over HTTP',
  sse: 'remote, server-sent events',
};
