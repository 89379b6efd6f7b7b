// Small DOM helpers: elements are built, never parsed from strings.

/**
 * @param {string} tag
 * @param {Record<string, string | number | boolean | undefined> | null} [attributes]
 * @param {...(Node | string | number | null | undefined | false)} children
 */
export function h(tag, attributes, ...children) {
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
export function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
  return parent;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
/** @param {string} tag @param {Record<string, string | number>} attributes */
export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children)
    element.append(typeof child === 'object' ? child : document.createTextNode(String(child)));
  return element;
}

/** Text with `code` spans (the OpenAPI descriptions use backticks), as nodes. @param {string} text */
export function richText(text) {
  const parts = String(text).split(/`([^`]+)`/);
  return parts.map((part, index) => (index % 2 === 1 ? h('code', { text: part }) : document.createTextNode(part)));
}

export const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const numberFormat = new Intl.NumberFormat(undefined);
export const fmt = (/** @type {number} */ n) => numberFormat.format(n);

/** A value safe to paste into a POSIX shell. @param {string} text */
export function shellQuote(text) {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
