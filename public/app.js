// The explorer and the API reference of the MCP Trust Score site. Plain JavaScript, no framework, no
// dependency. It talks to nothing but this host: `openapi.json` and the API under /v1.
//
// Safety: every value from the API or the user reaches the page through textContent or an attribute set by
// setAttribute (never innerHTML), so a server name cannot inject markup. The API key lives in localStorage
// and travels only in the X-API-Key header: never in a URL, never in the page's text.

const API_BASE = '/v1';
const KEY_STORAGE = 'mcp-trust-score.api-key';
/** Answers are kept this long in the page, so browsing back and forth does not spend the daily quota. */
const CLIENT_CACHE_MS = 10 * 60 * 1000;
const SEARCH_DEBOUNCE_MS = 250;
const SEARCH_MIN = 2;
const SEARCH_LIMIT = 10;
const EXAMPLE_SERVER = 'io.github.github/github-mcp-server';
const SERVER_PLACEHOLDER =
  'Pick a server from the search or the list below to see its card: its trust score, sub-scores, flags, badges and how to install it.';

/** CSS keys of the trust bands, highest first: the order of `trust_label`'s enum in the OpenAPI document. */
const BAND_KEYS = ['high', 'moderate', 'low', 'verylow', 'unknown'];
/** The score range of each band, in the same order (decisions, section 2; test/site.test.ts keeps them equal to src/schema.ts). */
const BAND_RANGES = [[80, 100], [60, 79], [40, 59], [20, 39], [0, 19]];

/** What each flag means, in words (data/README.md and the scoring pipeline's rules). */
const FLAG_MEANINGS = {
  NO_SOURCE: 'No public source repository: the registry entry gives neither a repository URL nor a package.',
  DEAD_ENTRY: 'Registry entry without packages or remotes: there is nothing to install or connect to.',
  SENSITIVE_CRED_REQUEST: 'Asks for a sensitive credential, such as a private key, a wallet, a seed phrase or a database password.',
  TEMPLATE_DESCRIPTION: 'Its description is a template phrase ("An MCP server…") rather than a statement of what it does.',
  DESCRIPTION_DUPLICATE: 'The same description is used by servers of three or more different publishers.',
  HIGH_SECRET_DEMAND: 'Asks for five or more secret environment variables.',
  REPO_ARCHIVED: 'Its source repository is archived: no longer maintained.',
  STAGING_ARTIFACT: 'Looks like a test or staging entry published by mistake (its name says test or staging, its description is a template).',
};

const SUBSCORES = [
  ['provenance', 'Provenance', 'source, licence, publisher'],
  ['maintenance', 'Maintenance', 'recent, steady activity'],
  ['popularity', 'Popularity', 'stars, forks, watchers'],
  ['permissions', 'Permissions', 'transport, credentials, package'],
];

const TRANSPORT_MEANINGS = {
  stdio: 'runs on your machine',
  'streamable-http': 'remote, over HTTP',
  sse: 'remote, server-sent events',
};

// ---------------------------------------------------------------------------------------------------------
// Small DOM helpers: elements are built, never parsed from strings.

/**
 * @param {string} tag
 * @param {Record<string, string | number | boolean | undefined> | null} [attributes]
 * @param {...(Node | string | number | null | undefined | false)} children
 */
function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === false) continue;
    if (name === 'class') element.className = String(value);
    else if (name === 'text') element.textContent = String(value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** @param {Element} parent @param {Array<Node | string | number | null | undefined | false>} children */
function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
  return parent;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
/** @param {string} tag @param {Record<string, string | number>} attributes */
function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children) element.append(typeof child === 'object' ? child : document.createTextNode(String(child)));
  return element;
}

/** Text with `code` spans (the OpenAPI descriptions use backticks), as nodes. @param {string} text */
function richText(text) {
  const parts = String(text).split(/`([^`]+)`/);
  return parts.map((part, index) => (index % 2 === 1 ? h('code', { text: part }) : document.createTextNode(part)));
}

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const numberFormat = new Intl.NumberFormat(undefined);
const fmt = (/** @type {number} */ n) => numberFormat.format(n);

/** A value safe to paste into a POSIX shell. @param {string} text */
function shellQuote(text) {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

// ---------------------------------------------------------------------------------------------------------
// The API client.

class ApiFailure extends Error {
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

const state = {
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
function storeKey(key) {
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
async function api(path, params = {}) {
  if (!state.key) throw new ApiFailure(0, 'no_key', 'No API key yet');
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') query.set(name, String(value));
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
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const error = body?.error ?? {};
    const reset = Number(response.headers.get('X-RateLimit-Reset'));
    const retryAfter = Number(response.headers.get('Retry-After'));
    throw new ApiFailure(response.status, String(error.code ?? 'http_error'), String(error.message ?? response.statusText), {
      reset: Number.isFinite(reset) && reset > 0 ? reset : undefined,
      retryAfter: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    });
  }
  state.cache.set(url, { at: Date.now(), body });
  return body;
}

// ---------------------------------------------------------------------------------------------------------
// Quota, notices and the key.

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
function updateQuota(response) {
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
    ` of ${fmt(limit)} requests left today`,
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

function showNoKey() {
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
function explainGlobally(error) {
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
        error.code === 'missing_api_key' ? 'No key was sent. ' : 'It does not match an active key: check for a typo, or issue a new one with ',
        error.code === 'missing_api_key' ? '' : h('code', { text: 'npm run keys -- create' }),
        '.',
      ]);
      return true;
    case 429: {
      const reset = error.reset ?? (error.retryAfter ? Math.round(Date.now() / 1000 + error.retryAfter) : undefined);
      const seconds = error.retryAfter ?? (reset ? reset - Date.now() / 1000 : undefined);
      showNotice('warn', 'Daily limit reached (429)', [
        'This key has used all of today\'s requests.',
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
function keyWorks() {
  $('api-key').removeAttribute('aria-invalid');
  const kind = $('notice').dataset.kind;
  if (kind !== undefined) clearNotice();
}

function setupKey() {
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

/** @param {string} key */
function useKey(key) {
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
  void loadStats();
  void loadList();
  const query = /** @type {HTMLInputElement} */ ($('search-input')).value.trim();
  if (query.length >= SEARCH_MIN) void runSearch(query);
  if (state.openName) void openServer(state.openName);
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

// ---------------------------------------------------------------------------------------------------------
// Labels.

/** @param {string} label */
function bandKey(label) {
  const index = state.labels.indexOf(label);
  return BAND_KEYS[index] ?? 'unknown';
}

/** @param {string} label */
const labelChip = (label) => h('span', { class: `chip label-${bandKey(label)}`, text: label });

/** @param {{ trust_score: number, trust_label: string }} record */
const scorePill = (record) =>
  h('span', { class: `score-pill score-${bandKey(record.trust_label)}`, text: record.trust_score, title: `Trust score ${record.trust_score} of 100` });

/** @param {string} name */
function nameParts(name) {
  const slash = name.indexOf('/');
  return { namespace: name.slice(0, slash), id: name.slice(slash + 1) };
}

/** @param {string} name */
function nameNode(name) {
  const { namespace, id } = nameParts(name);
  return h('span', { class: 'name' }, h('span', { class: 'ns', text: `${namespace}/` }), h('span', { class: 'id', text: id }));
}

// ---------------------------------------------------------------------------------------------------------
// Statistics.

async function loadStats() {
  const body = $('stats-body');
  body.setAttribute('aria-busy', 'true');
  try {
    const { data } = await api('/stats');
    keyWorks();
    renderStats(data);
  } catch (error) {
    explainGlobally(error);
    if (!body.querySelector('.figures')) body.replaceChildren(h('p', { class: 'placeholder', text: 'Statistics are not available right now.' }));
  } finally {
    body.setAttribute('aria-busy', 'false');
  }
}

/** @param {any} stats */
function renderStats(stats) {
  const figure = (/** @type {string} */ term, /** @type {string} */ value) =>
    h('div', { class: 'figure' }, h('dt', { text: term }), h('dd', { text: value }));
  const figures = h(
    'dl',
    { class: 'figures' },
    figure('Servers', fmt(stats.total_servers)),
    figure('Average score', stats.average_score.toFixed(1)),
    figure('Median score', String(stats.median_score)),
    figure('Verified', fmt(stats.verified_publishers)),
  );

  const labels = [...state.labels, ...Object.keys(stats.score_distribution).filter((label) => !state.labels.includes(label))];
  const rows = labels.map((label) => ({ label, count: stats.score_distribution[label] ?? 0 }));
  const total = Math.max(1, stats.total_servers);
  const percent = (/** @type {number} */ count) => `${((count / total) * 100).toFixed(1)}%`;

  const flagNames = Object.keys(stats.flag_summary).sort((a, b) => stats.flag_summary[b] - stats.flag_summary[a] || a.localeCompare(b));
  $('flag-names').replaceChildren(...flagNames.map((flag) => h('option', { value: flag })));

  const flagTable = h(
    'table',
    { class: 'flag-table' },
    h('caption', { class: 'visually-hidden', text: 'Servers per flag' }),
    h('thead', null, h('tr', null, h('th', { scope: 'col', text: 'Flag' }), h('th', { scope: 'col', class: 'num', text: 'Servers' }), h('th', { scope: 'col', text: 'Meaning' }))),
    h(
      'tbody',
      null,
      ...flagNames.map((flag) => {
        const button = h('button', { type: 'button', class: 'linkish flag-name', text: flag, 'aria-label': `List the servers flagged ${flag}` });
        button.addEventListener('click', () => filterByFlag(flag));
        return h(
          'tr',
          null,
          h('td', { class: 'flag' }, button),
          h('td', { class: 'num', text: fmt(stats.flag_summary[flag]) }),
          h('td', { class: 'meaning', text: FLAG_MEANINGS[/** @type {keyof typeof FLAG_MEANINGS} */ (flag)] ?? 'No description for this flag yet.' }),
        );
      }),
    ),
  );

  const chartBox = h('div', { class: 'chart-box' });
  $('stats-body').replaceChildren(
    h(
      'div',
      { class: 'stats-grid' },
      figures,
      h(
        'div',
        { class: 'distribution' },
        h('h4', { id: 'chart-title', class: 'first', text: 'Servers by trust label' }),
        chartBox,
        h(
          'details',
          { class: 'data-table' },
          h('summary', { text: 'Show as a table' }),
          h(
            'table',
            { id: 'distribution-table' },
            h('caption', { class: 'visually-hidden', text: 'Servers by trust label' }),
            h('thead', null, h('tr', null, h('th', { scope: 'col', text: 'Label' }), h('th', { scope: 'col', class: 'num', text: 'Servers' }), h('th', { scope: 'col', class: 'num', text: 'Share' }))),
            h('tbody', null, ...rows.map((row) => h('tr', null, h('th', { scope: 'row', text: row.label }), h('td', { class: 'num', text: fmt(row.count) }), h('td', { class: 'num', text: percent(row.count) })))),
          ),
        ),
      ),
    ),
    h('h4', { text: 'Flags raised' }),
    flagNames.length > 0 ? flagTable : h('p', { class: 'none', text: 'No server carries a flag.' }),
  );
  drawChart(chartBox, rows, percent);
}

/** The chart's box is watched so the chart is redrawn at its new width (text stays 13 px at any width). */
const chartObserver = new ResizeObserver((entries) => {
  for (const entry of entries) {
    const box = /** @type {HTMLElement & { redraw?: () => void, drawnWidth?: number }} */ (entry.target);
    if (box.redraw && Math.abs(box.clientWidth - (box.drawnWidth ?? 0)) >= 4) box.redraw();
  }
});

/**
 * @param {HTMLElement & { redraw?: () => void, drawnWidth?: number }} box
 * @param {{ label: string, count: number }[]} rows
 * @param {(count: number) => string} percent
 */
function drawChart(box, rows, percent) {
  box.redraw = () => {
    box.drawnWidth = box.clientWidth;
    box.replaceChildren(distributionChart(rows, percent, Math.max(240, box.clientWidth)));
  };
  box.redraw();
  chartObserver.observe(box);
}

/**
 * A horizontal bar chart of servers per label, as inline SVG drawn at `width` pixels (one unit, one pixel).
 * Wide: label, bar and count on one line; narrow (a phone): the label and count above the bar. Screen
 * readers get the figures from its aria-label, and from the table beside it.
 * @param {{ label: string, count: number }[]} rows
 * @param {(count: number) => string} percent
 * @param {number} width
 */
function distributionChart(rows, percent, width) {
  const narrow = width < 440;
  const rowHeight = narrow ? 46 : 34;
  const labelWidth = narrow ? 0 : 190;
  const countWidth = narrow ? 0 : 112;
  const barX = labelWidth;
  const barMax = width - labelWidth - countWidth;
  const barHeight = narrow ? 14 : 18;
  const max = Math.max(1, ...rows.map((row) => row.count));
  const description = rows.map((row) => `${row.label}: ${fmt(row.count)} (${percent(row.count)})`).join('; ');
  const chart = svg('svg', {
    class: 'chart',
    id: 'distribution-chart',
    width,
    height: rows.length * rowHeight,
    viewBox: `0 0 ${width} ${rows.length * rowHeight}`,
    role: 'img',
    'aria-label': `Servers by trust label. ${description}`,
  });
  rows.forEach((row, index) => {
    const top = index * rowHeight;
    const barY = narrow ? top + 22 : top + (rowHeight - barHeight) / 2;
    const textY = narrow ? top + 15 : top + rowHeight / 2 + 4.5;
    const barWidth = row.count === 0 ? 0 : Math.max(3, (row.count / max) * barMax);
    const band = bandKey(row.label);
    const range = BAND_RANGES[state.labels.indexOf(row.label)];
    const label = svg('text', { x: 0, y: textY }, row.label);
    if (range) label.append(svg('tspan', { class: 'range', dx: 6 }, `${range[0]}–${range[1]}`));
    const count = svg('text', { class: 'count', x: narrow ? width : barX + barMax + 8, y: textY, 'text-anchor': narrow ? 'end' : 'start' }, `${fmt(row.count)} · ${percent(row.count)}`);
    chart.append(
      label,
      svg('rect', { class: 'track', x: barX, y: barY, width: barMax, height: barHeight, rx: 4 }),
      svg('rect', { class: `bar-${band}`, x: barX, y: barY, width: barWidth.toFixed(1), height: barHeight, rx: 4, 'data-label': row.label, 'data-count': row.count }),
      count,
    );
  });
  return chart;
}

// ---------------------------------------------------------------------------------------------------------
// Search as you type.

function setupSearch() {
  const input = /** @type {HTMLInputElement} */ ($('search-input'));
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    const query = input.value.trim();
    if (query.length < SEARCH_MIN) {
      state.searchSeq += 1;
      $('search-results').replaceChildren();
      $('search-status').textContent = `Type at least ${SEARCH_MIN} characters.`;
      return;
    }
    timer = setTimeout(() => void runSearch(query), SEARCH_DEBOUNCE_MS);
  });
  $('search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(timer);
    const query = input.value.trim();
    if (query.length >= SEARCH_MIN) void runSearch(query);
  });
  // Arrow keys move between the input and the results; Escape goes back to the input.
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown') {
      const first = /** @type {HTMLElement | null} */ ($('search-results').querySelector('button'));
      if (first) {
        event.preventDefault();
        first.focus();
      }
    }
  });
  $('search-results').addEventListener('keydown', (event) => {
    const buttons = [...$('search-results').querySelectorAll('button')];
    const index = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    if (index === -1) return;
    if (event.key === 'ArrowDown' && index < buttons.length - 1) buttons[index + 1]?.focus();
    else if (event.key === 'ArrowUp') (index === 0 ? input : buttons[index - 1])?.focus();
    else if (event.key === 'Escape') input.focus();
    else return;
    event.preventDefault();
  });
}

/** @param {string} query */
async function runSearch(query) {
  const seq = ++state.searchSeq;
  const status = $('search-status');
  const list = $('search-results');
  status.textContent = 'Searching…';
  list.setAttribute('aria-busy', 'true');
  try {
    const { data, meta } = await api('/search', { q: query, limit: SEARCH_LIMIT });
    if (seq !== state.searchSeq) return;
    keyWorks();
    list.replaceChildren(
      ...data.map((/** @type {any} */ record) => {
        const button = h(
          'button',
          { type: 'button', class: 'result', 'data-name': record.name, 'aria-current': record.name === state.openName ? 'true' : undefined },
          scorePill(record),
          nameNode(record.name),
          labelChip(record.trust_label),
        );
        button.addEventListener('click', () => showServer(record.name));
        return h('li', null, button);
      }),
    );
    status.textContent =
      meta.total === 0
        ? `No server name matches “${query}”.`
        : meta.total > data.length
          ? `Best ${data.length} of ${fmt(meta.total)} matches for “${query}”.`
          : `${fmt(meta.total)} ${meta.total === 1 ? 'match' : 'matches'} for “${query}”.`;
  } catch (error) {
    if (seq !== state.searchSeq) return;
    list.replaceChildren();
    if (!explainGlobally(error)) status.textContent = error instanceof Error ? error.message : String(error);
    else status.textContent = 'Search is not available right now.';
  } finally {
    if (seq === state.searchSeq) list.setAttribute('aria-busy', 'false');
  }
}

// ---------------------------------------------------------------------------------------------------------
// A server's card. The open server is in the URL's fragment (#server=<name>), so Back and links work.

/** @param {string} name */
function showServer(name) {
  const hash = `#server=${encodeURIComponent(name)}`;
  if (location.hash === hash) void openServer(name, true);
  else location.hash = hash;
}

function serverFromHash() {
  const match = /^#server=(.+)$/.exec(location.hash);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1] ?? '');
  } catch {
    return null;
  }
}

/** @param {string} name @param {boolean} [focus] */
async function openServer(name, focus = true) {
  const seq = ++state.serverSeq;
  state.openName = name;
  for (const button of document.querySelectorAll('#search-results .result')) {
    if (button.getAttribute('data-name') === name) button.setAttribute('aria-current', 'true');
    else button.removeAttribute('aria-current');
  }
  const section = $('server');
  const body = $('server-body');
  section.setAttribute('aria-busy', 'true');
  body.replaceChildren(h('p', { class: 'placeholder', text: `Loading ${name}…` }));
  try {
    const slash = name.indexOf('/');
    if (slash <= 0 || slash === name.length - 1) throw new ApiFailure(404, 'server_not_found', `Server names are <namespace>/<id>.`);
    const path = `/servers/${encodeURIComponent(name.slice(0, slash))}/${encodeURIComponent(name.slice(slash + 1))}`;
    const { data } = await api(path);
    if (seq !== state.serverSeq) return;
    keyWorks();
    body.replaceChildren(serverCard(data));
  } catch (error) {
    if (seq !== state.serverSeq) return;
    if (error instanceof ApiFailure && error.status === 404) {
      body.replaceChildren(
        h('div', { class: 'card-error', id: 'server-not-found' },
          h('div', { class: 'server-head' }, h('h3', { tabindex: '-1', text: 'Server not found (404)' })),
          h('p', null, 'No scored server is named ', h('code', { text: name }), '.'),
          h('p', { class: 'hint', text: 'Names are <namespace>/<id>, for example io.github.github/github-mcp-server. Try the search above.' }),
        ),
      );
    } else {
      explainGlobally(error);
      body.replaceChildren(h('div', { class: 'card-error' }, h('div', { class: 'server-head' }, h('h3', { tabindex: '-1', text: name })), h('p', { class: 'none', text: 'This server cannot be shown right now (see the notice above).' })));
    }
  } finally {
    if (seq === state.serverSeq) section.setAttribute('aria-busy', 'false');
  }
  if (focus && seq === state.serverSeq) {
    const heading = /** @type {HTMLElement | null} */ (body.querySelector('h3'));
    heading?.focus({ preventScroll: true });
    section.scrollIntoView({ block: 'nearest' });
  }
}

/** @param {any} record */
function serverCard(record) {
  const { namespace, id } = nameParts(record.name);
  const band = bandKey(record.trust_label);
  const dial = h(
    'div',
    { class: `dial dial-${band}`, role: 'img', 'aria-label': `Trust score ${record.trust_score} of 100, ${record.trust_label}` },
    h('div', { class: 'dial-inner' }, h('div', null, h('span', { class: 'dial-score', text: record.trust_score }), h('span', { class: 'dial-of', text: 'of 100' }))),
  );
  dial.style.setProperty('--pct', String(record.trust_score));

  const meta = h('div', { class: 'server-meta' }, labelChip(record.trust_label));
  if (record.verified_publisher) meta.append(h('span', { class: 'chip chip-verified', text: '✓ Verified publisher' }));
  else meta.append(h('span', { class: 'chip chip-neutral', text: 'Publisher not verified' }));

  const head = h(
    'div',
    { class: 'server-head' },
    h('div', null, h('span', { class: 'ns', text: `${namespace}/` }), h('h3', { id: 'server-title', tabindex: '-1', text: id }), meta),
    dial,
  );

  const subscores = h(
    'dl',
    { class: 'subscores' },
    ...SUBSCORES.map(([key, title, hint]) => {
      const value = Number(record.scores[key]);
      const fill = h('span');
      fill.style.width = `${Math.max(0, Math.min(100, value))}%`;
      fill.style.background = `var(--${bandKey(state.labels[scoreBandIndex(value)] ?? '')})`;
      return h(
        'div',
        { class: 'subscore' },
        h('dt', null, title, h('small', { text: hint })),
        h('dd', null, h('span', { class: 'bar', 'aria-hidden': 'true' }, fill), h('span', { class: 'value', text: value, 'aria-label': `${value} of 100` })),
      );
    }),
  );

  const flags =
    record.flags.length === 0
      ? h('p', { class: 'none', text: 'No flags raised.' })
      : h(
          'ul',
          { class: 'flag-list' },
          ...record.flags.map((/** @type {string} */ flag) =>
            h('li', null, h('span', { class: 'flag-name', text: flag }), FLAG_MEANINGS[/** @type {keyof typeof FLAG_MEANINGS} */ (flag)] ?? 'No description for this flag yet.'),
          ),
        );

  const badges =
    record.badges.length === 0
      ? h('p', { class: 'none', text: 'No badges: the signals show none of the positive facts badges stand for.' })
      : h(
          'ul',
          { class: 'badge-list' },
          ...record.badges.map((/** @type {any} */ badge) => h('li', null, h('span', { class: 'chip label-high', text: badge.label }), ' ', h('span', { class: 'evidence', text: badge.evidence }))),
        );

  const targets =
    record.targets.length === 0
      ? h('p', { class: 'none', text: 'No platform target is known from its name.' })
      : h('ul', { class: 'chips' }, ...record.targets.map((/** @type {string} */ target) => h('li', { class: 'chip chip-neutral', text: target })));

  return h(
    'article',
    { class: 'server-card', 'aria-labelledby': 'server-title' },
    head,
    h('h4', { text: 'Sub-scores' }),
    subscores,
    h('h4', { text: `Flags (${record.flags.length})` }),
    flags,
    h('h4', { text: 'Badges' }),
    badges,
    h('h4', { text: 'Targets' }),
    targets,
    h('h4', { text: 'Install' }),
    installSection(record),
    h('p', { class: 'scored' }, 'Scored ', h('time', { datetime: record.scored_at, text: formatWhen(record.scored_at) }), '.'),
  );
}

/** Index of the band of `score` in the label order (the bands of the decisions: 80, 60, 40, 20, 0). @param {number} score */
function scoreBandIndex(score) {
  const index = BAND_RANGES.findIndex(([min]) => score >= (min ?? 0));
  return index === -1 ? BAND_RANGES.length - 1 : index;
}

/** @param {string} iso */
function formatWhen(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const when = date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  const days = Math.floor((Date.now() - date.getTime()) / 86_400_000);
  return days >= 1 ? `${when} (${fmt(days)} ${days === 1 ? 'day' : 'days'} ago)` : when;
}

/**
 * What the record says about installing the server, and commands built only from it: a package name is not
 * part of the record, so no package command is made up.
 * @param {any} record
 */
function installSection(record) {
  const install = record.install;
  const none = (/** @type {string} */ text) => h('span', { class: 'none', text });
  const list = (/** @type {string[]} */ items, /** @type {Record<string, string>} */ meanings = {}) =>
    items.length === 0 ? none('unknown') : items.map((item) => (meanings[item] ? `${item} (${meanings[item]})` : item)).join(', ');
  const repo = install.repo_url
    ? h('a', { href: install.repo_url, rel: 'noopener noreferrer nofollow', text: install.repo_url })
    : none('none known');
  const facts = h(
    'dl',
    { class: 'install' },
    h('dt', { text: 'Repository' }), h('dd', null, repo),
    h('dt', { text: 'Version' }), h('dd', null, install.version ?? none('unknown')),
    h('dt', { text: 'Packages' }), h('dd', null, list(install.package_types)),
    h('dt', { text: 'Transports' }), h('dd', null, list(install.transport_types, TRANSPORT_MEANINGS)),
  );
  const { namespace, id } = nameParts(record.name);
  const recordUrl = `${location.origin}${API_BASE}/servers/${encodeURIComponent(namespace)}/${encodeURIComponent(id)}`;
  const parts = [facts];
  if (install.repo_url) parts.push(command('Get the source', `git clone ${shellQuote(install.repo_url)}`));
  if (install.package_types.length > 0) {
    parts.push(h('p', { class: 'hint', text: `Published as ${install.package_types.join(', ')}; the package name is in the repository's README or the MCP registry entry, not in this record.` }));
  }
  parts.push(command('Fetch this record', `curl -H "X-API-Key: $TRUST_API_KEY" ${shellQuote(recordUrl)}`));
  parts.push(command('Fail a CI step below Moderate Trust (60)', `curl -fsS -H "X-API-Key: $TRUST_API_KEY" ${shellQuote(recordUrl)} | jq -e '.data.trust_score >= 60'`));
  return h('div', null, ...parts);
}

/** A command with a copy button. @param {string} label @param {string} text */
function command(label, text) {
  const code = h('code', { text });
  const pre = h('pre', null, code);
  const button = h('button', { type: 'button', class: 'ghost', text: 'Copy', 'aria-label': `Copy: ${label}` });
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      // No clipboard permission: select the text so Ctrl+C (or ⌘C) copies it.
      const range = document.createRange();
      range.selectNodeContents(code);
      const selection = getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      button.textContent = 'Press Ctrl+C';
    }
    setTimeout(() => (button.textContent = 'Copy'), 2000);
  });
  return h('div', null, h('p', { class: 'command-label', text: label }), h('div', { class: 'command' }, pre, button));
}

// ---------------------------------------------------------------------------------------------------------
// Browse: the filters and sorts of List Servers, paged.

function setupBrowse() {
  const form = /** @type {HTMLFormElement} */ ($('browse-form'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    state.list.offset = 0;
    void loadList();
  });
  form.addEventListener('reset', () => {
    // After the reset has restored the defaults.
    setTimeout(() => {
      state.list.offset = 0;
      void loadList();
    });
  });
  for (const id of ['f-sort', 'f-order', 'f-limit']) {
    $(id).addEventListener('change', () => {
      state.list.offset = 0;
      void loadList();
    });
  }
  $('page-prev').addEventListener('click', () => {
    state.list.offset = Math.max(0, state.list.offset - state.list.limit);
    void loadList(true);
  });
  $('page-next').addEventListener('click', () => {
    state.list.offset += state.list.limit;
    void loadList(true);
  });
}

/** @param {string} flag */
function filterByFlag(flag) {
  const form = /** @type {HTMLFormElement} */ ($('browse-form'));
  // "The servers flagged X": the other filters go, the sort and page size stay.
  for (const name of ['min_score', 'target', 'namespace']) /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value = '';
  /** @type {HTMLInputElement} */ (form.elements.namedItem('flags')).value = flag;
  state.list.offset = 0;
  void loadList();
  $('browse').scrollIntoView({ block: 'start' });
  $('browse-title').setAttribute('tabindex', '-1');
  $('browse-title').focus({ preventScroll: true });
}

/** @param {boolean} [paging] */
async function loadList(paging = false) {
  const seq = ++state.listSeq;
  const form = /** @type {HTMLFormElement} */ ($('browse-form'));
  const value = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value.trim();
  const limit = Number(value('limit')) || 25;
  state.list.limit = limit;
  const params = {
    limit,
    offset: state.list.offset,
    sort: value('sort'),
    order: value('order'),
    min_score: value('min_score'),
    flags: value('flags'),
    target: value('target'),
    namespace: value('namespace'),
  };
  const rows = $('browse-rows');
  const error = $('browse-error');
  rows.parentElement?.setAttribute('aria-busy', 'true');
  try {
    const { data, meta } = await api('/servers', params);
    if (seq !== state.listSeq) return;
    keyWorks();
    error.hidden = true;
    state.list.total = meta.total;
    state.list.offset = meta.offset;
    rows.replaceChildren(
      ...data.map((/** @type {any} */ record) => {
        const open = h('button', { type: 'button', class: 'linkish' }, nameNode(record.name));
        open.addEventListener('click', () => showServer(record.name));
        return h(
          'tr',
          null,
          h('td', null, open),
          h('td', { class: 'num' }, scorePill(record)),
          h('td', null, labelChip(record.trust_label)),
          h('td', null, record.flags.length === 0 ? h('span', { class: 'none', text: '—' }) : h('ul', { class: 'chips' }, ...record.flags.map((/** @type {string} */ flag) => h('li', { class: 'chip chip-flag', text: flag, title: FLAG_MEANINGS[/** @type {keyof typeof FLAG_MEANINGS} */ (flag)] ?? '' })))),
          h('td', { text: record.targets.join(', ') || '—' }),
        );
      }),
    );
    if (data.length === 0) {
      rows.append(h('tr', null, h('td', { colspan: '5', class: 'none', text: meta.total === 0 ? 'No server matches these filters.' : 'No servers on this page.' })));
    }
    const first = data.length === 0 ? 0 : meta.offset + 1;
    const last = meta.offset + data.length;
    $('page-status').textContent = data.length === 0 ? `0 of ${fmt(meta.total)}` : `${fmt(first)}–${fmt(last)} of ${fmt(meta.total)}`;
    $('browse-caption').textContent = `Servers ${first} to ${last} of ${meta.total}`;
    /** @type {HTMLButtonElement} */ ($('page-prev')).disabled = meta.offset === 0;
    /** @type {HTMLButtonElement} */ ($('page-next')).disabled = last >= meta.total;
    if (paging) $('browse').scrollIntoView({ block: 'nearest' });
  } catch (failure) {
    if (seq !== state.listSeq) return;
    if (!explainGlobally(failure)) {
      error.textContent = failure instanceof Error ? failure.message : String(failure);
      error.hidden = false;
    }
  } finally {
    if (seq === state.listSeq) rows.parentElement?.setAttribute('aria-busy', 'false');
  }
}

// ---------------------------------------------------------------------------------------------------------
// The API reference, rendered from the OpenAPI document.

/** @param {any} node */
function deref(node) {
  let current = node;
  while (current && typeof current.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce((/** @type {any} */ at, /** @type {string} */ part) => at?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], state.doc);
  }
  return current;
}

/** A schema in a few words: type, allowed values, bounds, default. @param {any} schema */
function schemaSummary(schema) {
  const parts = [];
  if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.join(', ')}`);
  else parts.push(schema.type ?? 'any');
  if (schema.minimum !== undefined || schema.maximum !== undefined) parts.push(`${schema.minimum ?? '…'} to ${fmt(schema.maximum ?? Infinity)}`);
  if (schema.minLength !== undefined || schema.maxLength !== undefined) parts.push(`${schema.minLength ?? 0} to ${schema.maxLength ?? '…'} characters`);
  if (schema.default !== undefined) parts.push(`default ${schema.default}`);
  return parts.join('; ');
}

/** A curl command for an operation, with example values for its path and required query. */
function exampleCommand(/** @type {string} */ path, /** @type {any} */ operation) {
  const { namespace, id } = nameParts(EXAMPLE_SERVER);
  let url = `${location.origin}${path.replace('{namespace}', namespace).replace('{id}', id)}`;
  const required = (operation.parameters ?? []).map(deref).filter((/** @type {any} */ p) => p.in === 'query' && p.required);
  if (required.length > 0) url += `?${required.map((/** @type {any} */ p) => `${p.name}=${p.name === 'q' ? 'postgres' : '…'}`).join('&')}`;
  const keyed = !(Array.isArray(operation.security) && operation.security.length === 0);
  return `curl ${keyed ? '-H "X-API-Key: $TRUST_API_KEY" ' : ''}${shellQuote(url)}`;
}

function renderEndpoints() {
  const doc = state.doc;
  const container = $('endpoints');
  const articles = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(/** @type {Record<string, any>} */ (item))) {
      const keyed = !(Array.isArray(operation.security) && operation.security.length === 0);
      const parameters = (operation.parameters ?? []).map(deref);
      const statuses = Object.entries(operation.responses).map(([status, response]) => [status, deref(response)]);
      const head = h(
        'div',
        { class: 'endpoint-head' },
        h('span', { class: 'method', text: method.toUpperCase() }),
        h('h3', null, h('code', { class: 'endpoint-path', text: path })),
        h('span', { class: 'endpoint-summary', text: operation.summary }),
        h('span', { class: `chip auth ${keyed ? 'chip-neutral' : 'label-high'}`, text: keyed ? 'X-API-Key' : 'No key' }),
      );
      const parts = [head, h('p', { class: 'desc' }, ...richText(operation.description ?? ''))];
      if (parameters.length > 0) {
        parts.push(
          h('div', { class: 'table-wrap' },
            h(
              'table',
              { class: 'params' },
              h('caption', { class: 'visually-hidden', text: `Parameters of ${method.toUpperCase()} ${path}` }),
              h('thead', null, h('tr', null, ...['Parameter', 'In', 'Type and bounds', 'Description'].map((title) => h('th', { scope: 'col', text: title })))),
              h(
                'tbody',
                null,
                ...parameters.map((/** @type {any} */ parameter) =>
                  h(
                    'tr',
                    null,
                    h('td', null, h('code', { text: parameter.name }), parameter.required ? h('span', { class: 'hint', text: ' required' }) : null),
                    h('td', { text: parameter.in }),
                    h('td', { text: schemaSummary(parameter.schema ?? {}) }),
                    h('td', null, ...richText(parameter.description ?? '')),
                  ),
                ),
              ),
            ),
          ),
        );
      }
      parts.push(
        h(
          'details',
          null,
          h('summary', { text: `Responses: ${statuses.map(([status]) => status).join(', ')}` }),
          h('ul', { class: 'statuses' }, ...statuses.map(([status, response]) => h('li', null, h('span', { class: 'status-code', text: status }), ...richText(response?.description ?? '')))),
        ),
        h('pre', null, h('code', { text: exampleCommand(path, operation) })),
      );
      articles.push(h('article', { class: 'panel endpoint', 'data-path': path, 'data-method': method }, ...parts));
    }
  }
  container.replaceChildren(...articles);
  container.setAttribute('aria-busy', 'false');
}

/** The sort and order choices of List Servers, from the document (so they cannot drift from the API). */
function fillListChoices() {
  const parameters = (state.doc.paths['/v1/servers']?.get?.parameters ?? []).map(deref);
  const byName = (/** @type {string} */ name) => parameters.find((/** @type {any} */ p) => p.name === name)?.schema ?? {};
  const words = (/** @type {string} */ value) => value.replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase());
  const fill = (/** @type {string} */ id, /** @type {any} */ schema, /** @type {(v: string) => string} */ label) => {
    const select = $(id);
    select.replaceChildren(
      ...(schema.enum ?? []).map((/** @type {string} */ value) => {
        const option = /** @type {HTMLOptionElement} */ (h('option', { value, text: label(value) }));
        option.defaultSelected = value === schema.default;
        return option;
      }),
    );
  };
  fill('f-sort', byName('sort'), words);
  fill('f-order', byName('order'), (value) => (value === 'desc' ? 'Descending' : value === 'asc' ? 'Ascending' : value));
  const limit = byName('limit');
  const minScore = byName('min_score');
  if (minScore.maximum !== undefined) $('f-min-score').setAttribute('max', String(minScore.maximum));
  if (limit.maximum !== undefined) {
    for (const option of /** @type {HTMLSelectElement} */ ($('f-limit')).options) option.disabled = Number(option.value) > limit.maximum;
  }
}

async function loadDocument() {
  try {
    const response = await fetch('openapi.json', { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`openapi.json answered ${response.status}`);
    state.doc = await response.json();
  } catch (error) {
    $('endpoints').replaceChildren(h('p', { class: 'inline-error', text: `The OpenAPI document cannot be loaded: ${error instanceof Error ? error.message : error}` }));
    return false;
  }
  state.labels = state.doc.components?.schemas?.ServerRecord?.properties?.trust_label?.enum ?? [];
  fillListChoices();
  renderEndpoints();
  return true;
}

/** Examples on the page name this host, so they can be pasted as they are. */
function localiseExamples() {
  if (!/^https?:$/.test(location.protocol)) return;
  const base = `${location.origin}${API_BASE}`;
  for (const id of ['curl-example', 'mcp-config']) {
    const node = $(id);
    node.textContent = (node.textContent ?? '').replaceAll('http://127.0.0.1:3000/v1', base);
  }
}

async function main() {
  setupKey();
  setupSearch();
  setupBrowse();
  localiseExamples();
  window.addEventListener('hashchange', () => {
    const name = serverFromHash();
    if (name) void openServer(name);
  });
  const ready = await loadDocument();
  if (!ready) return;
  if (!state.key) {
    showNoKey();
    const name = serverFromHash();
    if (name) state.openName = name;
    return;
  }
  void loadStats();
  void loadList();
  const name = serverFromHash();
  if (name) void openServer(name, false);
}

void main();
