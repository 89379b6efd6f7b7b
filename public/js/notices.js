// Quota, notices and the key.
import { ApiFailure, state, storeKey } from './client.js';
import { $, append, fmt, h } from './dom.js';
import { SEARCH_MIN, SERVER_PLACEHOLDER } from './words.js';

/** What to load again once a new key is in use: the page's parts, given by app.js (`setupKey`). */
let reloadExplorer = () => {};

/** @param {number} epochSeconds */
function formatReset(epochSeconds) {
  const date = new Date(epochSeconds * 1000);
  const time = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
  const today = new Date();
  const tomorrow = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
  let day = date.toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long' });
  if (date.toDateString() === today.toDateString()) day = 'today';
  else if (date.toDateString() === tomorrow.toDateString()) day = 'tomorrow';
  return `${time} ${day}`;
}

/** @param {number} seconds */
function formatDuration(seconds) {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.max(1, Math.ceil((seconds % 3600) / 60));
  return hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`;
}

/** @param {Response} response */
export function updateQuota(response) {
  const limit = Number(response.headers.get('X-RateLimit-Limit'));
  const remaining = Number(response.headers.get('X-RateLimit-Remaining'));
  const reset = Number(response.headers.get('X-RateLimit-Reset'));
  // A 401 is not tied to the key, and a 502 could not count: their headers say nothing about this key's day.
  if (response.status === 401 || response.status === 502) {
    $('quota').textContent = '';
    return;
  }
  if (!Number.isFinite(limit) || !Number.isFinite(remaining)) return;
  $('quota').replaceChildren(
    h('strong', { text: fmt(remaining) }),
    ` of ${fmt(limit)} ${limit === 1 ? 'request' : 'requests'} left today`,
    Number.isFinite(reset) && reset > 0 ? ` · resets at ${formatReset(reset)}` : '',
  );
}

/**
 * @param {'info' | 'warn' | 'error'} kind
 * @param {string} title
 * @param {Array<Node | string>} body
 */
function showNotice(kind, title, body) {
  const notice = $('notice');
  notice.className = `notice notice-${kind}`;
  notice.setAttribute('role', kind === 'info' ? 'status' : 'alert');
  notice.dataset.kind = kind;
  notice.replaceChildren(
    h('span', { class: 'notice-icon', 'aria-hidden': 'true', text: kind === 'info' ? 'i' : '!' }),
    h('div', null, h('p', { class: 'notice-title', text: title }), append(h('p'), body)),
  );
  notice.hidden = false;
}

function clearNotice() {
  const notice = $('notice');
  notice.hidden = true;
  notice.replaceChildren();
  delete notice.dataset.kind;
}

export function showNoKey() {
  showNotice('info', 'Enter an API key to explore', [
    'The explorer reads the live API, which needs a key. Running the service yourself? ',
    h('code', { text: 'npm start' }),
    ' prints one; ',
    h('code', { text: 'npm run keys -- create' }),
    ' issues more. The API reference below needs no key.',
  ]);
}

/**
 * Explain a failure that concerns the whole explorer (key, quota, store, network). Returns true when it
 * did; the caller shows anything else (400, 404) where it happened.
 * @param {unknown} error
 */
export function explainGlobally(error) {
  if (!(error instanceof ApiFailure)) {
    showNotice('error', 'Something went wrong', [String(error instanceof Error ? error.message : error)]);
    return true;
  }
  const keyInput = /** @type {HTMLInputElement} */ ($('api-key'));
  switch (error.status === 0 ? error.code : error.status) {
    case 'no_key':
      showNoKey();
      return true;
    case 'network':
      showNotice('error', 'The API cannot be reached', ['Check that the server is running, then try again.']);
      return true;
    case 401:
      keyInput.setAttribute('aria-invalid', 'true');
      $('quota').textContent = '';
      showNotice('error', 'This API key was not accepted (401)', [
        error.code === 'missing_api_key'
          ? 'No key was sent. '
          : 'It does not match an active key: check for a typo, or issue a new one with ',
        error.code === 'missing_api_key' ? '' : h('code', { text: 'npm run keys -- create' }),
        '.',
      ]);
      return true;
    case 429: {
      const reset = error.reset ?? (error.retryAfter ? Math.round(Date.now() / 1000 + error.retryAfter) : undefined);
      const seconds = error.retryAfter ?? (reset ? reset - Date.now() / 1000 : undefined);
      showNotice('warn', 'Daily limit reached (429)', [
        "This key has used all of today's requests.",
        reset ? ` The limit resets at ${formatReset(reset)}` : '',
        seconds ? ` (in ${formatDuration(seconds)}).` : reset ? '.' : '',
        ' Answers already loaded stay available.',
      ]);
      return true;
    }
    case 502:
      showNotice('error', 'The data store is unavailable (502)', [
        'The service cannot reach the store that keeps keys and daily counters, so it answered nothing (and counted nothing). Try again in a moment.',
      ]);
      return true;
    default:
      if (error.status >= 500) {
        showNotice('error', `The service failed (${error.status})`, [error.message]);
        return true;
      }
      return false;
  }
}

/** A successful answer with the current key: the key works, so a key-related notice can go. */
export function keyWorks() {
  $('api-key').removeAttribute('aria-invalid');
  const kind = $('notice').dataset.kind;
  if (kind !== undefined) clearNotice();
}

/**
 * The key form. `reload` loads the explorer's parts again with a new key: app.js passes it, so this module
 * needs none of the parts it reloads.
 * @param {() => void} reload
 */
export function setupKey(reload) {
  reloadExplorer = reload;
  const form = /** @type {HTMLFormElement} */ ($('key-form'));
  const input = /** @type {HTMLInputElement} */ ($('api-key'));
  const show = $('key-show');
  input.value = state.key;
  show.addEventListener('click', () => {
    const visible = input.type === 'text';
    input.type = visible ? 'password' : 'text';
    show.setAttribute('aria-pressed', String(!visible));
    show.textContent = visible ? 'Show' : 'Hide';
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const key = input.value.trim();
    if (key && !/^[\x21-\x7e]+$/.test(key)) {
      input.setAttribute('aria-invalid', 'true');
      showNotice('error', 'That does not look like an API key', ['A key is printable characters without spaces.']);
      return;
    }
    useKey(key);
  });
  $('key-forget').addEventListener('click', () => {
    input.value = '';
    useKey('');
    input.focus();
  });
}

/** Make `key` the explorer's key (kept in local storage) and load everything with it. @param {string} key */
export function useKey(key) {
  state.key = key;
  state.cache.clear();
  storeKey(key);
  $('api-key').removeAttribute('aria-invalid');
  $('quota').textContent = '';
  if (!key) {
    showNoKey();
    resetExplorer();
    return;
  }
  clearNotice();
  reloadExplorer();
}

function resetExplorer() {
  $('stats-body').replaceChildren(h('p', { class: 'placeholder', text: 'Statistics appear here once a key is set.' }));
  $('browse-rows').replaceChildren();
  $('page-status').textContent = '';
  $('search-results').replaceChildren();
  $('search-status').textContent = `Type at least ${SEARCH_MIN} characters.`;
  /** @type {HTMLButtonElement} */ ($('page-prev')).disabled = true;
  /** @type {HTMLButtonElement} */ ($('page-next')).disabled = true;
  $('server-body').replaceChildren(h('p', { class: 'placeholder', text: SERVER_PLACEHOLDER }));
  state.openName = null;
}
