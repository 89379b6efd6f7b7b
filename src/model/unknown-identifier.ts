/**
 * The form an identifier the snapshot does not know is counted under (`src/gateway/unknown-counter.ts`):
 * one spelling per package or remote, whatever form the request gave, and nothing else of it.
 *
 * - A package as its package URL without a version (`pkg:npm/%40scope/name`, `pkg:pypi/name`), from the key
 *   lookups compare by, so `npm:@scope/name@1.2` and `pkg:npm/%40scope/name` count as one. An MCP bundle
 *   (`mcpb`, named by a download URL that may carry a token) has no package URL and is not counted.
 * - A remote as its URL's origin and path, without credentials, query or fragment (any of which may be a
 *   secret a configuration carries: `?api_key=`, `https://user:pass@`), and without a trailing slash.
 *
 * An identifier longer than `MAX_UNKNOWN_IDENTIFIER_LENGTH` or with a character outside printable ASCII is
 * not counted: cutting it would count a name nobody asked for.
 */
import { purlOf } from './purl.js';

export const MAX_UNKNOWN_IDENTIFIER_LENGTH = 300;

const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/** What a lookup or a check item names, as `itemQuery` and the lookup handler file it. */
export interface UnknownQuery {
  kind: 'package' | 'url' | 'repository';
  key: string;
}

/**
 * The form `query` is counted under, or undefined when it is not counted. A repository is not: the night
 * looks for packages and remotes, and a repository names neither.
 */
export function unknownIdentifierOf(query: UnknownQuery): string | undefined {
  if (query.kind === 'repository') return undefined;
  const form = query.kind === 'package' ? packageForm(query.key) : remoteForm(query.key);
  return form !== undefined && form.length <= MAX_UNKNOWN_IDENTIFIER_LENGTH && PRINTABLE_ASCII.test(form)
    ? form
    : undefined;
}

/** `npm:@scope/name` (a package key) → `pkg:npm/%40scope/name`; undefined for a type purl does not cover. */
function packageForm(key: string): string | undefined {
  return purlOf(key);
}

/** An http(s) URL → its origin and path, without credentials, query, fragment or a trailing slash. */
function remoteForm(key: string): string | undefined {
  let url: URL;
  try {
    url = new URL(key);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
