// A server's card. The open server is in the URL's fragment (#server=<name>), so Back and links work.
import { ApiFailure, api, state } from './client.js';
import { $, fmt, h, shellQuote } from './dom.js';
import { explainBlock } from './explain.js';
import { historyBlock } from './history.js';
import { bandKey, labelChip, nameParts, scoredDay, scoredOn } from './labels.js';
import { notifyBlock } from './notify.js';
import { toolsBlock } from './tools.js';
import { explainGlobally, keyWorks } from './notices.js';
import { API_BASE, BAND_RANGES, SUBSCORES, TRANSPORT_MEANINGS, flagMeaning } from './words.js';

/** @param {string} name */
export function showServer(name) {
  const hash = `#server=${encodeURIComponent(name)}`;
  if (location.hash === hash) void openServer(name, true);
  else location.hash = hash;
}

export function serverFromHash() {
  const match = /^#server=(.+)$/.exec(location.hash);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1] ?? '');
  } catch {
    return null;
  }
}

/** @param {string} name @param {boolean} [focus] */
export async function openServer(name, focus = true) {
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
    if (slash <= 0 || slash === name.length - 1)
      throw new ApiFailure(404, 'server_not_found', `Server names are <namespace>/<id>.`);
    const { data } = await api(apiPath(name.slice(0, slash), name.slice(slash + 1)));
    if (seq !== state.serverSeq) return;
    keyWorks();
    body.replaceChildren(serverCard(data));
  } catch (error) {
    if (seq !== state.serverSeq) return;
    if (error instanceof ApiFailure && error.status === 404) {
      body.replaceChildren(
        h(
          'div',
          { class: 'card-error', id: 'server-not-found' },
          h('div', { class: 'server-head' }, h('h3', { tabindex: '-1', text: 'Server not found (404)' })),
          h('p', null, 'No scored server is named ', h('code', { text: name }), '.'),
          h('p', {
            class: 'hint',
            text: 'Names are <namespace>/<id>, for example io.github.github/github-mcp-server. Try the search above.',
          }),
        ),
      );
    } else {
      explainGlobally(error);
      body.replaceChildren(
        h(
          'div',
          { class: 'card-error' },
          h('div', { class: 'server-head' }, h('h3', { tabindex: '-1', text: name })),
          h('p', { class: 'none', text: 'This server cannot be shown right now (see the notice above).' }),
        ),
      );
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
    {
      class: `dial dial-${band}`,
      role: 'img',
      'aria-label': `Trust score ${record.trust_score} of 100, ${record.trust_label}, ${scoredOn(record.scored_at)}`,
    },
    h(
      'div',
      { class: 'dial-inner' },
      h(
        'div',
        null,
        h('span', { class: 'dial-score', text: record.trust_score }),
        h('span', { class: 'dial-of', text: 'of 100' }),
      ),
    ),
  );
  dial.style.setProperty('--pct', String(record.trust_score));

  const meta = h(
    'div',
    { class: 'server-meta' },
    labelChip(record.trust_label),
    h('span', { class: 'chip chip-neutral', text: `Scored on ${scoredDay(record.scored_at)}` }),
  );
  if (record.verified_publisher) meta.append(h('span', { class: 'chip chip-verified', text: '✓ Verified publisher' }));
  else meta.append(h('span', { class: 'chip chip-neutral', text: 'Publisher not verified' }));

  const head = h(
    'div',
    { class: 'server-head' },
    h(
      'div',
      null,
      h('span', { class: 'ns', text: `${namespace}/` }),
      h('h3', { id: 'server-title', tabindex: '-1', text: id }),
      meta,
    ),
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
        h(
          'dd',
          null,
          h('span', { class: 'bar', 'aria-hidden': 'true' }, fill),
          h('span', { class: 'value', text: value, 'aria-label': `${value} of 100` }),
        ),
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
            h(
              'li',
              null,
              h('span', { class: 'flag-name', text: flag }),
              flagMeaning(flag) ?? 'No description for this flag yet.',
            ),
          ),
        );

  const badges =
    record.badges.length === 0
      ? h('p', { class: 'none', text: 'No badges: the signals show none of the positive facts badges stand for.' })
      : h(
          'ul',
          { class: 'badge-list' },
          ...record.badges.map((/** @type {any} */ badge) =>
            h(
              'li',
              null,
              h('span', { class: 'chip label-high', text: badge.label }),
              ' ',
              h('span', { class: 'evidence', text: badge.evidence }),
            ),
          ),
        );

  const targets =
    record.targets.length === 0
      ? h('p', { class: 'none', text: 'No platform target is known from its name.' })
      : h(
          'ul',
          { class: 'chips' },
          ...record.targets.map((/** @type {string} */ target) =>
            h('li', { class: 'chip chip-neutral', text: target }),
          ),
        );

  return h(
    'article',
    { class: 'server-card', 'aria-labelledby': 'server-title' },
    head,
    h('h4', { text: 'Sub-scores' }),
    subscores,
    h('h4', { text: 'Why this score' }),
    explainBlock(apiPath(namespace, id)),
    h('h4', { text: 'Score over time' }),
    historyBlock(apiPath(namespace, id)),
    h('h4', { text: 'Tools' }),
    toolsBlock(apiPath(namespace, id), record),
    h('h4', { text: `Flags (${record.flags.length})` }),
    flags,
    h('h4', { text: 'Badges' }),
    badges,
    h('h4', { text: 'Targets' }),
    targets,
    h('h4', { text: 'Install' }),
    installSection(record),
    h('h4', { text: 'Notify me' }),
    notifyBlock(record.name),
    h(
      'p',
      { class: 'scored' },
      'Scored on ',
      h('time', { datetime: record.scored_at, text: formatWhen(record.scored_at) }),
      '.',
    ),
  );
}

/** @param {string} namespace @param {string} id */
const apiPath = (namespace, id) => `/servers/${encodeURIComponent(namespace)}/${encodeURIComponent(id)}`;

/** Index of the band of `score` in the label order (the bands of the decisions: 80, 60, 40, 20, 0). @param {number} score */
function scoreBandIndex(score) {
  const index = BAND_RANGES.findIndex(([min]) => score >= (min ?? 0));
  return index === -1 ? BAND_RANGES.length - 1 : index;
}

/** The UTC day of `iso` and how long ago it was: `2026-02-21 (279 days ago)`. @param {string} iso */
function formatWhen(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const when = date.toISOString().slice(0, 10);
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
    items.length === 0
      ? none('unknown')
      : items.map((item) => (meanings[item] ? `${item} (${meanings[item]})` : item)).join(', ');
  const repo = install.repo_url
    ? h('a', { href: install.repo_url, rel: 'noopener noreferrer nofollow', text: install.repo_url })
    : none('none known');
  const facts = h(
    'dl',
    { class: 'install' },
    h('dt', { text: 'Repository' }),
    h('dd', null, repo),
    h('dt', { text: 'Version' }),
    h('dd', null, install.version ?? none('unknown')),
    h('dt', { text: 'Packages' }),
    h('dd', null, list(install.package_types)),
    h('dt', { text: 'Transports' }),
    h('dd', null, list(install.transport_types, TRANSPORT_MEANINGS)),
  );
  const { namespace, id } = nameParts(record.name);
  const recordUrl = `${location.origin}${API_BASE}/servers/${encodeURIComponent(namespace)}/${encodeURIComponent(id)}`;
  const parts = [facts];
  if (install.repo_url) parts.push(command('Get the source', `git clone ${shellQuote(install.repo_url)}`));
  const packages = /** @type {{registry_type: string, identifier: string}[]} */ (record.packages ?? []);
  if (packages.length > 0) {
    parts.push(
      h('p', {
        class: 'hint',
        text: `Packages (from the MCP registry): ${packages.map((pkg) => `${pkg.registry_type}:${pkg.identifier}`).join(', ')}.`,
      }),
    );
  } else if (install.package_types.length > 0) {
    parts.push(
      h('p', {
        class: 'hint',
        text: `Published as ${install.package_types.join(', ')}; the package name is in the repository's README or the MCP registry entry.`,
      }),
    );
  }
  parts.push(command('Fetch this record', `curl -H "X-API-Key: $TRUST_API_KEY" ${shellQuote(recordUrl)}`));
  parts.push(
    command(
      'Fail a CI step below Moderate Trust (60)',
      `curl -fsS -H "X-API-Key: $TRUST_API_KEY" ${shellQuote(recordUrl)} | jq -e '.data.trust_score >= 60'`,
    ),
  );
  const badgeUrl = `${location.origin}/badges/${encodeURIComponent(namespace)}/${encodeURIComponent(id)}.svg`;
  parts.push(
    h(
      'p',
      { class: 'badge-preview' },
      h('img', { src: badgeUrl, alt: `MCP trust badge of ${record.name}`, height: '20' }),
    ),
  );
  parts.push(command('Show this badge in a README (Markdown)', `![MCP trust](${badgeUrl})`));
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
