// The API reference, rendered from the OpenAPI document.
import { state } from './client.js';
import { $, fmt, h, richText, shellQuote } from './dom.js';
import { nameParts } from './labels.js';
import { API_BASE, EXAMPLE_SERVER } from './words.js';

/** @param {any} node */
function deref(node) {
  let current = node;
  while (current && typeof current.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce(
        (/** @type {any} */ at, /** @type {string} */ part) => at?.[part.replaceAll('~1', '/').replaceAll('~0', '~')],
        state.doc,
      );
  }
  return current;
}

/** A schema in a few words: type, allowed values, bounds, default. @param {any} schema */
function schemaSummary(schema) {
  const parts = [];
  if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.join(', ')}`);
  else parts.push(schema.type ?? 'any');
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    parts.push(`${schema.minimum ?? '…'} to ${fmt(schema.maximum ?? Infinity)}`);
  if (schema.minLength !== undefined || schema.maxLength !== undefined)
    parts.push(`${schema.minLength ?? 0} to ${schema.maxLength ?? '…'} characters`);
  if (schema.default !== undefined) parts.push(`default ${schema.default}`);
  return parts.join('; ');
}

/** A curl command for an operation, with example values for its path and required query. */
function exampleCommand(/** @type {string} */ path, /** @type {any} */ operation) {
  const { namespace, id } = nameParts(EXAMPLE_SERVER);
  let url = `${location.origin}${path.replace('{namespace}', namespace).replace('{id}', id)}`;
  const required = (operation.parameters ?? [])
    .map(deref)
    .filter((/** @type {any} */ p) => p.in === 'query' && p.required);
  if (required.length > 0)
    url += `?${required.map((/** @type {any} */ p) => `${p.name}=${p.name === 'q' ? 'postgres' : '…'}`).join('&')}`;
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
        h('span', {
          class: `chip auth ${keyed ? 'chip-neutral' : 'label-high'}`,
          text: keyed ? 'X-API-Key' : 'No key',
        }),
      );
      const parts = [head, h('p', { class: 'desc' }, ...richText(operation.description ?? ''))];
      if (parameters.length > 0) {
        parts.push(
          h(
            'div',
            { class: 'table-wrap' },
            h(
              'table',
              { class: 'params' },
              h('caption', { class: 'visually-hidden', text: `Parameters of ${method.toUpperCase()} ${path}` }),
              h(
                'thead',
                null,
                h(
                  'tr',
                  null,
                  ...['Parameter', 'In', 'Type and bounds', 'Description'].map((title) =>
                    h('th', { scope: 'col', text: title }),
                  ),
                ),
              ),
              h(
                'tbody',
                null,
                ...parameters.map((/** @type {any} */ parameter) =>
                  h(
                    'tr',
                    null,
                    h(
                      'td',
                      null,
                      h('code', { text: parameter.name }),
                      parameter.required ? h('span', { class: 'hint', text: ' required' }) : null,
                    ),
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
          h(
            'ul',
            { class: 'statuses' },
            ...statuses.map(([status, response]) =>
              h(
                'li',
                null,
                h('span', { class: 'status-code', text: status }),
                ...richText(response?.description ?? ''),
              ),
            ),
          ),
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
  const byName = (/** @type {string} */ name) =>
    parameters.find((/** @type {any} */ p) => p.name === name)?.schema ?? {};
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
  fill('f-order', byName('order'), (value) =>
    value === 'desc' ? 'Descending' : value === 'asc' ? 'Ascending' : value,
  );
  const limit = byName('limit');
  const minScore = byName('min_score');
  if (minScore.maximum !== undefined) $('f-min-score').setAttribute('max', String(minScore.maximum));
  if (limit.maximum !== undefined) {
    for (const option of /** @type {HTMLSelectElement} */ ($('f-limit')).options)
      option.disabled = Number(option.value) > limit.maximum;
  }
}

export async function loadDocument() {
  try {
    const response = await fetch('openapi.json', { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`openapi.json answered ${response.status}`);
    state.doc = await response.json();
  } catch (error) {
    $('endpoints').replaceChildren(
      h('p', {
        class: 'inline-error',
        text: `The OpenAPI document cannot be loaded: ${error instanceof Error ? error.message : error}`,
      }),
    );
    return false;
  }
  state.labels = state.doc.components?.schemas?.ServerRecord?.properties?.trust_label?.enum ?? [];
  fillListChoices();
  renderEndpoints();
  return true;
}

/** Examples on the page name this host, so they can be pasted as they are. */
export function localiseExamples() {
  if (!/^https?:$/.test(location.protocol)) return;
  const base = `${location.origin}${API_BASE}`;
  for (const id of ['curl-example', 'mcp-config']) {
    const node = $(id);
    node.textContent = (node.textContent ?? '').replaceAll('http://127.0.0.1:3000/v1', base);
  }
}
