/**
 * The name index the build computes directly holds exactly the terms, documents and BM25 scores that
 * MiniSearch 7's own index gives for the same fields (the id with boost 3, the namespace with boost 1, words
 * by `nameWords`, the namespace's by `namespaceWords`), with one difference the reference applies itself: a
 * field's length leaves out `OPTIONAL_WORDS` (`mcp`, `server`, …) unless it has only those. MiniSearch's
 * terms, documents and frequencies are the reference here, on the committed dataset's names and on random ones.
 */
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import MiniSearch, { type AsPlainObject } from 'minisearch';
import { describe, expect, it } from 'vitest';
import { splitName } from '../../src/model/schema.js';
import { decodeU32 } from '../../src/format/binary.js';
import { encodeNameIndex } from '../../src/search/word-index-writer.js';
import { FIELD_BOOST, namespaceWords, nameWords, OPTIONAL_WORDS } from '../../src/search/words.js';
import { PostingTable, type PostingTableRanges, StringTable, type StringTableRanges } from '../../src/format/tables.js';
import { compareNames } from '../../src/format/name-order.js';

type Postings = Map<string, { ids: number[]; scores: number[] }>;

/** MiniSearch's index of `names` (ids in order), turned into per-term BM25 postings as its scorer weighs them. */
function reference(names: readonly string[]): Postings {
  // The namespace as the index files it: the publisher's words and the marked reverse-DNS prefix.
  const tokenize = (text: string, field?: string) => {
    if (field !== 'namespace') return nameWords(text);
    const { publisher, prefix } = namespaceWords(text);
    return [...publisher, ...prefix];
  };
  const index = new MiniSearch<{ id: number; server: string; namespace: string }>({
    idField: 'id',
    fields: ['server', 'namespace'],
    storeFields: [],
    tokenize,
    processTerm: (term) => term,
  });
  // Each field's length without the optional words (all of them when a name has only those), and the
  // running mean of those lengths, in MiniSearch's floating-point steps.
  const fieldLength = new Map<string, number[]>();
  const averageFieldLength = new Map<string, number>();
  for (const fieldName of ['server', 'namespace']) {
    const lengths = names.map((name) => {
      const { namespace, id: server } = splitName(name);
      const distinct = new Set(tokenize(fieldName === 'server' ? server : namespace, fieldName));
      const content = [...distinct].filter((word) => !OPTIONAL_WORDS.has(word)).length;
      return content > 0 ? content : distinct.size;
    });
    let average = 0;
    lengths.forEach((length, documents) => (average = (average * documents + length) / (documents + 1)));
    fieldLength.set(fieldName, lengths);
    averageFieldLength.set(fieldName, average || 1);
  }
  names.forEach((name, id) => {
    const { namespace, id: server } = splitName(name);
    index.add({ id, server, namespace });
  });
  const plain = index.toJSON() as AsPlainObject;
  const result: Postings = new Map();
  for (const [term, fields] of plain.index) {
    const byDoc = new Map<number, number>();
    for (const [fieldName, fieldId] of Object.entries(plain.fieldIds)) {
      const docs = fields[String(fieldId)];
      if (!docs) continue;
      const entries = Object.entries(docs);
      const boost = FIELD_BOOST[fieldName as keyof typeof FIELD_BOOST];
      const idf = Math.log(1 + (plain.documentCount - entries.length + 0.5) / (entries.length + 0.5));
      const average = averageFieldLength.get(fieldName)!;
      for (const [shortId, frequency] of entries) {
        const id = Number(plain.documentIds[shortId]);
        const length = fieldLength.get(fieldName)![id]!;
        const tf = (frequency * (1.2 + 1)) / (frequency + 1.2 * (1 - 0.7 + (0.7 * length) / average));
        byDoc.set(id, (byDoc.get(id) ?? 0) + boost * idf * tf);
      }
    }
    const ids = [...byDoc.keys()].sort((a, b) => a - b);
    result.set(term, { ids, scores: ids.map((id) => Math.fround(byDoc.get(id)!)) });
  }
  return result;
}

function decoded(bytes: Buffer): Postings {
  const artifact = decodeU32(bytes);
  const directory = artifact.directory as { terms: StringTableRanges; term_postings: PostingTableRanges };
  const terms = new StringTable(artifact, directory.terms);
  const table = new PostingTable(artifact, directory.term_postings);
  const result: Postings = new Map();
  for (let i = 0; i < terms.length; i++)
    result.set(terms.at(i), { ids: [...table.idsAt(i)], scores: [...table.scoresAt(i)] });
  return result;
}

const sorted = (postings: Postings) => new Map([...postings].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

describe('the name index', () => {
  it('equals MiniSearch’s on the committed dataset, score for score', async () => {
    const records = JSON.parse(await readFile('data/servers.json', 'utf8')) as { name: string }[];
    const names = records.map((record) => record.name).sort(compareNames);
    const ours = decoded(encodeNameIndex(names));
    expect(ours.size).toBeGreaterThan(1000);
    expect(sorted(ours)).toEqual(sorted(reference(names)));
  });

  it('equals MiniSearch’s on random names, with repeated words, case changes and punctuation', () => {
    const word = fc.constantFrom('mcp', 'server', 'GitHub', 'post', 'postgres', 'a', 'MCPServer', 'x1', 'é', 'mcp');
    const name = fc
      .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), fc.array(word, { minLength: 1, maxLength: 4 }))
      .map(([namespace, id]) => `${namespace.join('.')}/${id.join('-')}`);
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 40, selector: (n) => n.toLowerCase() }), (names) => {
        expect(sorted(decoded(encodeNameIndex(names)))).toEqual(sorted(reference(names)));
      }),
      { numRuns: 60 },
    );
  });
});
