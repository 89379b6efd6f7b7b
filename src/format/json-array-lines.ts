/**
 * The layout of the committed JSON arrays (the dataset, the registry feed): `[`, one compact item per line, `]`,
 * so a changed item is a one-line diff. Made a piece at a time, so a writer never holds the whole file as text.
 */

/** The file's text in pieces: the opening bracket, each item's line, the closing bracket. */
export function* jsonArrayLines(items: Iterable<unknown>): Generator<string> {
  let first = true;
  for (const item of items) {
    yield `${first ? '[\n' : ',\n'}${JSON.stringify(item)}`;
    first = false;
  }
  yield first ? '[]\n' : '\n]\n';
}

/** The same text in one string. */
export const jsonArrayText = (items: Iterable<unknown>): string => [...jsonArrayLines(items)].join('');
