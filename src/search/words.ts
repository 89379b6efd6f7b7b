/**
 * How search sees text: how names (and descriptions, and queries) become words, the typo tolerance, the
 * relevance weights, and the exact-id key. The build (`word-index-writer.ts`) and the query side
 * (`src/search/word-index.ts`) both use these, so the two can never disagree.
 *
 * Decisions §4: a name is split into words on `/ . - _` and letter-case changes; the id part weighs more
 * than the namespace (so `github` does not rank every `io.github.*` server first); prefix matching;
 * typo tolerance for words of 4 or more characters; several words mean all of them.
 */

/**
 * Words of a name or a query: split on `/ . - _`, white space and other punctuation, and where the
 * letter case changes (`PostgresMCP` → `postgres`, `mcp`; `myServer` → `my`, `server`), lower-cased.
 */
export function nameWords(text: string): string[] {
  const words: string[] = [];
  // Most names are plain ASCII: the same split without Unicode classes, and no case boundary to look for
  // in a chunk without capitals (the build splits every name, so this halves its cost).
  if (!NON_ASCII.test(text)) {
    for (const chunk of text.split(/[^A-Za-z0-9]+/)) {
      if (chunk === '') continue;
      if (!CAPITAL.test(chunk)) words.push(chunk);
      // Capitals but no case boundary inside (`Manage`, `API`): the chunk is one word.
      else if (!CASE_BOUNDARY.test(chunk)) words.push(chunk.toLowerCase());
      else splitCase(chunk, words);
    }
    return words;
  }
  for (const chunk of text.split(/[^\p{L}\p{N}]+/u)) {
    if (chunk !== '') splitCase(chunk, words);
  }
  return words;
}

/** A character outside ASCII: a name without one takes the fast path. */
const NON_ASCII = /[^\p{ASCII}]/u;
const CAPITAL = /[A-Z]/;
/** Where splitCase splits an ASCII chunk: a lower-case letter before a capital, or `MCPServer`'s `PS`. */
const CASE_BOUNDARY = /[a-z][A-Z]|[A-Z][A-Z][a-z]/;

/** The words of one chunk of letters and digits, split where the case changes, lower-cased. */
function splitCase(chunk: string, words: string[]): void {
  // camelCase boundary, then an acronym followed by a capitalised word (MCPServer → MCP Server), but not an
  // acronym's plural (PRs, APIs: an `s` that no lower-case letter follows).
  const spaced = chunk
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})(?<!\p{Lu}s(?!\p{Ll}))/gu, '$1 $2');
  for (const word of spaced.split(' ')) if (word !== '') words.push(word.toLowerCase());
}

/**
 * A namespace is not a name (issue 43): in a reverse-DNS namespace (`io.github.alice`, `com.microsoft`) the
 * top-level domain, and a code host followed by an owner (`io.github.`), say where the publisher lives, not
 * who it is. Those prefix words are filed with NAMESPACE_MARK in front, so only a query that writes a
 * namespace (one with a `.`) reaches them; the rest, the publisher, is searched like the id. Three marks keep
 * a marked term beyond the typo distance (2) of any query word.
 */
export const NAMESPACE_MARK = '\u0001\u0001\u0001';
const CODE_HOSTS = new Set(['github', 'gitlab', 'bitbucket', 'codeberg', 'sourcehut']);

/** Whether a query writes a namespace, and so may match a namespace's prefix words (`io.github`). */
export const writesNamespace = (query: string): boolean => query.includes('.');

/**
 * A namespace's words: `publisher`, searched as any word of the name (the owner's words, and each owner
 * segment run together, so `Dave-London` is found by `davelondon` and `GitHub30` by `github`), and `prefix`,
 * the reverse-DNS words before it, already marked.
 */
export function namespaceWords(namespace: string): { publisher: string[]; prefix: string[] } {
  const segments = namespace.split('.');
  if (segments.length < 2) return { publisher: nameWords(namespace), prefix: [] };
  const hosted = segments.length > 2 && CODE_HOSTS.has(segments[1]!.toLowerCase());
  const cut = hosted ? 2 : 1;
  const prefix = nameWords(segments.slice(0, cut).join('.')).map((word) => NAMESPACE_MARK + word);
  const owner = segments.slice(cut);
  const publisher = nameWords(owner.join('.'));
  for (const segment of owner) {
    const whole = segment.toLowerCase().replace(/[^a-z0-9]/g, '');
    if (whole !== '' && !publisher.includes(whole)) publisher.push(whole);
  }
  return { publisher, prefix };
}

/**
 * The keys under which a record is filed as its publisher's own (in the exact table, marked): the namespace's
 * owner part (after the reverse-DNS prefix) with everything but letters and digits left out, so
 * `io.github.github` → `github`, `com.microsoft` → `microsoft`, `io.github.Dave-London` → `davelondon`; and,
 * for a domain with more labels (`com.figma.mcp`, the domain `mcp.figma.com`), its registrable name alone
 * (`figma`), since the labels after it name a host of the publisher's, not another publisher. A query is the
 * publisher's when its words run together give one of these keys (`ownerKeyOfQuery`).
 */
export function ownerKeys(namespace: string): string[] {
  const segments = namespace.split('.');
  const hosted = segments.length > 2 && CODE_HOSTS.has(segments[1]!.toLowerCase());
  const owner = segments.length < 2 ? segments : segments.slice(hosted ? 2 : 1);
  const key = (labels: readonly string[]) =>
    NAMESPACE_MARK +
    labels
      .join('')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]/gu, '');
  const whole = key(owner);
  if (hosted || owner.length < 2) return [whole];
  // `uk.co.acme.mcp`: the registry's own second level (`co`) is not the name.
  const name = SECOND_LEVELS.has(owner[0]!.toLowerCase()) ? owner[1]! : owner[0]!;
  const domain = key([name]);
  return HOST_LABELS.has(name.toLowerCase()) || domain === whole || domain === NAMESPACE_MARK
    ? [whole]
    : [whole, domain];
}

/** Second-level labels of country domains (`co.uk`, `com.au`): the name is the label after them. */
const SECOND_LEVELS = new Set(['ac', 'co', 'com', 'edu', 'gov', 'net', 'org']);
/** Labels that name a host or a service, not a publisher (`api.aws`, `www`): no key of their own. */
const HOST_LABELS = new Set(['api', 'app', 'mcp', 'staging', 'test', 'www']);

export const ownerKeyOfQuery = (query: string): string => NAMESPACE_MARK + nameWords(query).join('');

/**
 * The singulars a query word may be the plural of (`prs` → `pr`, `libraries` → `library`), each matched as a
 * whole word, never begun: the typo tolerance reads most plurals from 4 letters, but not a short one, and with
 * a lower weight. A word ending in `ss` is no plural; a singular has at least 2 letters.
 */
export function singulars(word: string): string[] {
  if (!word.endsWith('s') || word.endsWith('ss') || word.length < 3) return [];
  return word.endsWith('ies') && word.length > 4 ? [word.slice(0, -3) + 'y', word.slice(0, -1)] : [word.slice(0, -1)];
}

/**
 * Words that do not say which server is meant when other words do: every record is an MCP server, and the
 * rest join words in a sentence. Kept short: a word here is never required next to a content word
 * (`readings.ts`), and none makes a name longer for its relevance (`word-index-writer.ts`).
 */
export const OPTIONAL_WORDS: ReadonlySet<string> = new Set([
  'mcp',
  'server',
  'servers',
  'a',
  'an',
  'and',
  'at',
  'by',
  'for',
  'from',
  'in',
  'of',
  'on',
  'or',
  'the',
  'to',
  'with',
]);

/** Typo tolerance: none below 4 characters, one edit from 4, two from 8. */
export function fuzziness(term: string): number | false {
  if (term.length >= 8) return 2;
  if (term.length >= 4) return 1;
  return false;
}

/**
 * Relevance, in one place: the id part weighs 3 and the namespace 1; a word that a query word only begins
 * counts half, one within the typo distance about a third. The build scores terms with the boosts
 * (`word-index-writer.ts`), `src/search/word-index.ts` weighs query words with the rest.
 */
export const FIELD_BOOST = { server: 3, namespace: 1 } as const;
export const PREFIX_WEIGHT = 0.5;
export const FUZZY_WEIGHT = 0.35;

/**
 * The key under which a record's id is filed for exact matching: its words, sorted and joined. A query
 * whose words are exactly the id's words ranks that record first (decisions §6: `q=mcp` puts
 * `<namespace>/mcp` at the top).
 */
export function exactKey(text: string): string {
  return nameWords(text).sort().join(' ');
}
