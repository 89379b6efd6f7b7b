// A server's pinned tools, from `/tools`: how many its remote listed when probed, when and by whom, and each
// tool's name, hints and description, shown as text (the publisher's words, never markup or instructions).
import { api } from './client.js';
import { h } from './dom.js';
import { unavailable } from './history.js';

/** How many tools the card lists, and how much of a description it shows; the API has the rest. */
const MAX_LISTED = 100;
const MAX_DESCRIPTION = 400;

/** The annotations' hints in words. */
const HINTS = /** @type {const} */ ([
  ['read_only', 'read-only'],
  ['destructive', 'destructive'],
  ['idempotent', 'idempotent'],
  ['open_world', 'open-world'],
]);

/**
 * The tools block of a card: only a remote is probed, so a server without one says so without asking; for a
 * remote, a placeholder at once and the tools when the answer comes, a short note if it fails.
 * @param {string} path the server's API path, `/servers/<namespace>/<id>`
 * @param {any} record
 */
export function toolsBlock(path, record) {
  if (!Array.isArray(record.remotes) || record.remotes.length === 0)
    return h('p', {
      class: 'none',
      text: 'No remote endpoint: there is nothing to probe, so its tools are known only to whoever runs it.',
    });
  const box = h(
    'div',
    { class: 'tools', 'aria-busy': 'true' },
    h('p', { class: 'placeholder', text: 'Loading the tools…' }),
  );
  api(`${path}/tools`)
    .then(({ data }) => box.replaceChildren(...toolsView(data, path)))
    .catch((error) => box.replaceChildren(unavailable('The list of tools', error)))
    .finally(() => box.setAttribute('aria-busy', 'false'));
  return box;
}

/** @param {any} data the answer's `data` @param {string} path */
function toolsView(data, path) {
  const tools = /** @type {any[]} */ (Array.isArray(data.tools) ? data.tools : []);
  if (tools.length === 0)
    return [h('p', { class: 'none', text: data.reason ?? 'No tools are pinned for this server.' })];
  const by = data.probed_by ? ` by ${data.probed_by}${data.third_party ? ' (a third party)' : ''}` : '';
  const when = typeof data.probed_at === 'string' ? ` on ${data.probed_at.slice(0, 10)}` : '';
  const count = Number(data.tool_count);
  const summary = h('p', {
    class: 'tools-summary',
    text:
      `${count} ${count === 1 ? 'tool' : 'tools'}, as its remote listed them when probed${when}${by}` +
      `${data.truncated ? ' (it listed more; the list is cut)' : ''}. Names, descriptions and hints are the ` +
      "publisher's own words.",
  });
  const list = h(
    'ul',
    { class: 'tool-list' },
    ...tools.slice(0, MAX_LISTED).map((tool) => {
      const hints = HINTS.flatMap(([key, word]) =>
        tool.annotations?.[key] === undefined ? [] : [tool.annotations[key] ? word : `not ${word}`],
      );
      const description = typeof tool.description === 'string' ? tool.description : '';
      return h(
        'li',
        null,
        h('code', { class: 'tool-name', text: String(tool.name) }),
        ...hints.map((hint) =>
          h('span', { class: `chip ${hint === 'destructive' ? 'label-low' : 'chip-neutral'}`, text: hint }),
        ),
        description === ''
          ? null
          : h('p', {
              class: 'evidence',
              text: description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION)}…` : description,
            }),
      );
    }),
  );
  const rest =
    tools.length > MAX_LISTED
      ? h('p', { class: 'hint', text: `And ${tools.length - MAX_LISTED} more: GET /v1${path}/tools lists them all.` })
      : null;
  return [
    summary,
    h(
      'details',
      { class: 'tools-details' },
      h('summary', { text: `The ${count} ${count === 1 ? 'tool' : 'tools'}` }),
      list,
      rest,
    ),
    h('p', { class: 'hint', text: `Hash ${data.hash}: it changes when any definition changes.` }),
  ];
}
