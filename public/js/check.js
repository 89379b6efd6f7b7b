// Check my MCP setup: a pasted client configuration, parsed and mapped to lookups by the CLI's own code
// (`config-check.js`, generated), judged in one `POST /v1/check`, and shown as a verdict per entry.
import { ApiFailure, apiPost, state } from './client.js';
import { DEFAULT_CONFIG_FILES, itemForEntry, parseConfigFile } from './config-check.js';
import { $, fmt, h } from './dom.js';
import { labelChip, scorePill } from './labels.js';
import { explainGlobally, keyWorks } from './notices.js';

/** The most items one `POST /v1/check` takes (the API's own bound, CHECK_LIMITS.maxItems). */
const MAX_ITEMS = 100;

/**
 * @typedef {{ file: string, name: string, line: number, command?: string, args: string[], url?: string }} ConfigEntry
 * @typedef {string | { package: string } | { url: string }} CheckItem
 * @typedef {'pass' | 'warn' | 'fail'} Verdict
 * @typedef {{ min_score?: number, unknown: Verdict }} Policy
 * @typedef {{ input: CheckItem, server: string | null, trust_score: number | null, trust_label: string | null,
 *   verdict: Verdict, reasons: string[] }} CheckResult
 * @typedef {{ entry: ConfigEntry, item: CheckItem | null, result: CheckResult }} Row
 */

export function setupCheck() {
  const form = /** @type {HTMLFormElement} */ ($('check-form'));
  const file = /** @type {HTMLSelectElement} */ ($('check-file'));
  const submit = /** @type {HTMLButtonElement} */ ($('check-submit'));
  const result = $('check-result');
  // The kinds of file are the CLI's, so the page offers exactly what it reads by default.
  file.replaceChildren(...DEFAULT_CONFIG_FILES.map((name) => h('option', { value: name, text: name })));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    // A second click while the first check runs would spend the items of the key's day twice.
    if (submit.disabled) return;
    submit.disabled = true;
    result.setAttribute('aria-busy', 'true');
    try {
      result.replaceChildren(...(await runCheck()));
    } finally {
      submit.disabled = false;
      result.setAttribute('aria-busy', 'false');
    }
  });
}

/** Everything the result area shows for the form as it is now. */
async function runCheck() {
  const fileName = /** @type {HTMLSelectElement} */ ($('check-file')).value;
  const text = /** @type {HTMLTextAreaElement} */ ($('check-text')).value;
  const minInput = /** @type {HTMLInputElement} */ ($('check-min-score'));
  const unknown = /** @type {Verdict} */ (/** @type {HTMLSelectElement} */ ($('check-unknown')).value);
  minInput.removeAttribute('aria-invalid');

  if (!state.key) return [noKey()];
  if (!text.trim()) return [problem('Paste the contents of a configuration file first.')];
  /** @type {Policy} */
  const policy = { unknown };
  const min = minInput.value.trim();
  if (min !== '') {
    const value = Number(min);
    if (!Number.isInteger(value) || value < 0 || value > 100) {
      minInput.setAttribute('aria-invalid', 'true');
      return [problem('The minimum trust score is a whole number from 0 to 100, or empty for the default of 40.')];
    }
    policy.min_score = value;
  }

  /** @type {ConfigEntry[]} */
  let entries;
  try {
    entries = parseConfigFile(fileName, text);
  } catch (error) {
    // The parser's message names the file and the problem (not valid JSON, no "mcpServers" or "servers").
    return [problem(error instanceof Error ? error.message : String(error))];
  }
  if (entries.length === 0) return [problem(`${fileName}: it lists no servers.`)];

  const mapped = entries.map((entry) => ({ entry, mapping: itemForEntry(entry) }));
  /** @type {CheckItem[]} */
  const items = [];
  for (const { mapping } of mapped) if (mapping.ok) items.push(mapping.item);
  if (items.length > MAX_ITEMS) {
    return [
      problem(
        `This configuration has ${fmt(items.length)} servers to check; one check takes at most ${MAX_ITEMS}. Split it into smaller files and check each.`,
      ),
    ];
  }

  /** @type {CheckResult[]} */
  let results = [];
  if (items.length > 0) {
    try {
      results = await postCheck(items, policy);
      keyWorks();
    } catch (error) {
      return [failure(error)];
    }
  }
  // The API answers in the order of the items, so the checkable entries take its results in turn.
  let next = 0;
  /** @type {Row[]} */
  const rows = mapped.map(({ entry, mapping }) =>
    mapping.ok
      ? { entry, item: mapping.item, result: /** @type {CheckResult} */ (results[next++]) }
      : { entry, item: null, result: notCheckable(mapping.reason, policy.unknown) },
  );
  return [overall(rows), resultTable(rows)];
}

/**
 * `POST /v1/check` with the key. Resolves with the results; rejects with an ApiFailure carrying the API's
 * message (a 429 says how many requests the key has left). Never cached: the answer depends on the policy.
 * @param {CheckItem[]} servers @param {Policy} policy
 * @returns {Promise<CheckResult[]>}
 */
async function postCheck(servers, policy) {
  const body = await apiPost('/check', { servers, policy });
  if (!Array.isArray(body.data?.results)) throw new ApiFailure(200, 'http_error', 'The answer held no results.');
  return body.data.results;
}

/**
 * An entry the CLI's mapping cannot identify is judged as an unknown server, as the CLI judges it, without
 * spending a request on it.
 * @param {string} reason @param {Verdict} unknown
 * @returns {CheckResult}
 */
function notCheckable(reason, unknown) {
  return {
    input: '',
    server: null,
    trust_score: null,
    trust_label: null,
    verdict: unknown,
    reasons: [`Not checkable: ${reason}; the policy treats servers it cannot identify as "${unknown}".`],
  };
}

function noKey() {
  return h(
    'p',
    { class: 'inline-error', role: 'alert' },
    'Checking needs an API key: enter yours above, or ',
    h('a', { href: '#access', text: 'get a free key' }),
    ' first.',
  );
}

/** @param {string} text */
const problem = (text) => h('p', { class: 'inline-error', role: 'alert', text });

/** The API's words for a failed check; the key's own troubles (401, network, store) also go to the notice. @param {unknown} error */
function failure(error) {
  if (!(error instanceof ApiFailure)) return problem(String(error instanceof Error ? error.message : error));
  if (error.status === 0) {
    explainGlobally(error);
    return problem(error.message);
  }
  // The notice's 429 says the day is used up; a check can be refused with requests left (more items than
  // remain), so the API's own message, which says how many are left, is shown here instead.
  if (error.status !== 429 && error.status !== 400) explainGlobally(error);
  return problem(`${error.message} (${error.status})`);
}

/** @param {Verdict} verdict */
const verdictTag = (verdict) => h('span', { class: `verdict verdict-${verdict}`, text: verdict.toUpperCase() });

/** The verdict of the whole configuration: fail when any entry fails. @param {Row[]} rows */
function overall(rows) {
  const count = (/** @type {Verdict} */ verdict) => rows.filter((row) => row.result.verdict === verdict).length;
  const failed = count('fail');
  const warned = count('warn');
  const verdict = failed > 0 ? 'fail' : 'pass';
  const entries = (/** @type {number} */ n) => `${fmt(n)} ${n === 1 ? 'entry' : 'entries'}`;
  return h(
    'div',
    { class: 'check-overall', id: 'check-overall', role: 'status' },
    h('p', { class: 'check-overall-verdict' }, 'Overall verdict: ', verdictTag(verdict)),
    h('p', {
      class: 'hint',
      text: `${entries(rows.length)}: ${fmt(failed)} failed, ${fmt(warned)} warned, ${fmt(rows.length - failed - warned)} passed.`,
    }),
  );
}

/** What an item asked the API for, in words. @param {CheckItem | null} item */
function checkedBy(item) {
  if (item === null) return h('span', { class: 'none', text: 'not checkable' });
  if (typeof item === 'string') return h('span', null, 'name ', h('code', { text: item }));
  if ('package' in item) return h('span', null, 'package ', h('code', { text: item.package }));
  return h('span', null, 'url ', h('code', { text: item.url }));
}

/** @param {Row[]} rows */
function resultTable(rows) {
  const head = ['Entry', 'Checked by', 'Server', 'Score', 'Verdict', 'Reasons'];
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'checks', id: 'check-table' },
      h('caption', { class: 'visually-hidden', text: 'Verdict per server of the configuration' }),
      h('thead', null, h('tr', null, ...head.map((text) => h('th', { scope: 'col', text })))),
      h('tbody', null, ...rows.map(resultRow)),
    ),
  );
}

/** @param {Row} row */
function resultRow({ entry, item, result }) {
  const server = result.server
    ? h('a', { href: `#server=${encodeURIComponent(result.server)}`, class: 'check-server', text: result.server })
    : h('span', { class: 'none', text: 'none' });
  const score =
    result.trust_score === null || result.trust_label === null
      ? h('span', { class: 'none', text: '—' })
      : h(
          'span',
          { class: 'check-score' },
          scorePill({ trust_score: result.trust_score, trust_label: result.trust_label }),
          labelChip(result.trust_label),
        );
  return h(
    'tr',
    { 'data-entry': entry.name, 'data-verdict': result.verdict },
    h('td', null, h('span', { class: 'check-entry', text: entry.name }), h('small', { text: `line ${entry.line}` })),
    h('td', { 'data-label': 'Checked by' }, checkedBy(item)),
    h('td', { 'data-label': 'Server' }, server),
    h('td', { 'data-label': 'Score' }, score),
    h('td', { 'data-label': 'Verdict' }, verdictTag(result.verdict)),
    h(
      'td',
      { class: 'check-reasons-cell' },
      result.reasons.length === 0
        ? h('span', { class: 'none', text: 'Meets the policy.' })
        : h('ul', { class: 'check-reasons' }, ...result.reasons.map((reason) => h('li', { text: reason }))),
    ),
  );
}
