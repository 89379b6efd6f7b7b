/**
 * The parts of a snapshot beyond what Get Server needs, each read, checked against the manifest and decoded
 * when first needed or in the background after the server starts answering (`loadAll`), in slices that
 * give the event loop a turn every few milliseconds, so loading never stalls the requests being served. A
 * request waits only for the part it needs (`ready`); the engine's synchronous accessors are used after it.
 * A part whose bytes fail their check is never decoded or served: its `ready` rejects with the loader's
 * one-line error, for good.
 */
import { decodeCompactHistory } from '../history/compact-history.js';
import type { HistoryView } from '../history/history.js';
import type { LookupArtifact } from '../format/lookup-table.js';
import { type AdvisoryIndex, AdvisoryFileSchema, indexAdvisories } from '../model/advisories.js';
import { NO_TOOLS, parseToolsArtifact, type ToolsIndex } from '../format/tools-artifact.js';
import { parseRegistryArtifact, type RegistryArtifact } from '../registry/files.js';
import {
  decodeColumns,
  decodeLookup,
  decodePostings,
  decodeSortIndexes,
  type PostingLists,
  type SortOrders,
} from '../format/index-layout.js';
import { type LoadedArtifacts, type LoadTimings, type PendingArtifact, undecodable } from './load.js';
import { createSlicer, nextSlice, type Slicer } from '../format/slicer.js';
import { WordIndex } from '../search/word-index.js';
import type { SnapshotPart } from './types.js';

/** What lists (and the score ties of searches and lookups) need. */
export interface ListIndexes {
  trustScore: Uint32Array;
  /** atLeast[m]: how many records have a trust score of m or more (the total of a min_score filter). */
  atLeast: Uint32Array;
  orders: SortOrders;
  postings: PostingLists;
}

export interface SearchIndexes {
  nameIndex: WordIndex;
}

export interface DescriptionIndexes {
  descriptionIndex: WordIndex;
}

export type Part = SnapshotPart;
/** The parts each part needs loaded too (a search breaks ties by score). */
const NEEDS: Record<Part, readonly Part[]> = {
  lists: [],
  search: ['lists'],
  descriptions: ['search'],
  // A check resolves items through the lookup and judges unknown packages by the advisories.
  lookup: ['lists', 'advisories'],
  history: [],
  registry: [],
  advisories: [],
  tools: [],
};

/** A synchronous accessor was called before its part was ready: a bug in the caller, never a user error. */
export class PartNotReadyError extends Error {}

export interface SnapshotParts {
  lists(): ListIndexes;
  search(): SearchIndexes;
  descriptions(): DescriptionIndexes;
  lookup(): LookupArtifact;
  history(): HistoryView | undefined;
  registry(): RegistryArtifact | undefined;
  advisories(): AdvisoryIndex;
  tools(): ToolsIndex;
  /** Resolves once `part` (and what it needs) is loaded; rejects with the loader's error if it cannot be. */
  ready(part: Part): Promise<void>;
  /**
   * Load every part not loaded yet (the history is checked but decoded on first use), check the records'
   * blocks not read yet and the files serving never reads; resolves when all are.
   */
  loadAll(): Promise<void>;
  /** Whether every part but the history (decoded on first use) is loaded. */
  loaded(): boolean;
  /** When each loaded part became ready (`performance.now()`), in the order they did. */
  readyAt(): ReadonlyMap<Part, number>;
}

interface Slot<T> {
  value?: { of: T };
  loading?: Promise<void>;
}

export interface PartsOptions {
  /** Milliseconds a loading slice may hold the event loop (default 8); Infinity loads in one go. */
  sliceMs?: number;
  /** The shortest search list that gets a bit set (`word-index.ts`; tests set it low to exercise it). */
  denseListMinIds?: number;
}

export function createParts(
  artifacts: LoadedArtifacts,
  timings: LoadTimings = {},
  options: PartsOptions = {},
): SnapshotParts {
  const count = artifacts.manifest.record_count;
  const sliceMs = options.sliceMs ?? 8;

  /** Read and check an artifact, then decode it, with errors that name the file. */
  async function decode<T>(
    artifact: PendingArtifact,
    how: (bytes: Buffer, slicer: Slicer) => T | Promise<T>,
  ): Promise<T> {
    const bytes = await artifact.read();
    try {
      return await how(bytes, createSlicer(sliceMs));
    } catch (error) {
      throw undecodable(artifact, error);
    }
  }

  const loaders: { [P in Part]: () => Promise<unknown> } = {
    async lists(): Promise<ListIndexes> {
      const [columns, orders, postings] = await Promise.all([
        decode(artifacts.columns, (bytes) => decodeColumns(bytes, count)),
        decode(artifacts.sortIndexes, (bytes) => decodeSortIndexes(bytes, count)),
        decode(artifacts.postings, (bytes) => decodePostings(bytes)),
      ]);
      const trustScore = columns.trust_score;
      const atLeast = new Uint32Array(102);
      for (const score of trustScore) {
        if (score > 100) throw undecodable(artifacts.columns, new Error(`a trust score of ${score}`));
        atLeast[score]!++;
      }
      for (let score = 100; score >= 0; score--) atLeast[score]! += atLeast[score + 1]!;
      return { trustScore, atLeast, orders, postings };
    },
    async search(): Promise<SearchIndexes> {
      return { nameIndex: await decode(artifacts.search, (bytes, slicer) => WordIndex.load(bytes, slicer, options)) };
    },
    async descriptions(): Promise<DescriptionIndexes> {
      const descriptionIndex = await decode(artifacts.descriptions, async (bytes, slicer) => {
        const index = await WordIndex.load(bytes, slicer, options);
        if (index.documentCount !== count) throw new Error(`an index of ${index.documentCount} records, not ${count}`);
        return index;
      });
      return { descriptionIndex };
    },
    lookup: () => decode(artifacts.lookup, decodeLookup),
    history: async () =>
      artifacts.history === undefined
        ? undefined
        : decode(artifacts.history, (bytes, slicer) => decodeCompactHistory(bytes, slicer, artifacts.names)),
    registry: async () =>
      artifacts.registry === undefined
        ? undefined
        : decode(artifacts.registry, (bytes) => parseRegistryArtifact(bytes.toString('utf8'))),
    advisories: async () =>
      artifacts.advisories === undefined
        ? new Map()
        : decode(artifacts.advisories, (bytes) =>
            indexAdvisories(AdvisoryFileSchema.parse(JSON.parse(bytes.toString('utf8')))),
          ),
    tools: async () => (artifacts.tools === undefined ? NO_TOOLS : decode(artifacts.tools, parseToolsArtifact)),
  };

  const slots: { [P in Part]: Slot<unknown> } = {
    lists: {},
    search: {},
    descriptions: {},
    lookup: {},
    history: {},
    registry: {},
    advisories: {},
    tools: {},
  };
  const readyTimes = new Map<Part, number>();

  function ready(part: Part): Promise<void> {
    const slot = slots[part];
    if (slot.value) return Promise.resolve();
    return (slot.loading ??= (async () => {
      await Promise.all(NEEDS[part].map(ready));
      const started = performance.now();
      const value = await loaders[part]();
      timings[part] = performance.now() - started;
      slot.value = { of: value };
      readyTimes.set(part, performance.now());
    })());
  }

  function get<T>(part: Part): T {
    const value = slots[part].value;
    if (!value)
      throw new PartNotReadyError(`the snapshot's ${part} part is not loaded yet (await ready('${part}') first)`);
    return value.of as T;
  }

  let all: Promise<void> | undefined;
  return {
    lists: () => get<ListIndexes>('lists'),
    search: () => get<SearchIndexes>('search'),
    descriptions: () => get<DescriptionIndexes>('descriptions'),
    lookup: () => get<LookupArtifact>('lookup'),
    history: () => get<HistoryView | undefined>('history'),
    registry: () => get<RegistryArtifact | undefined>('registry'),
    advisories: () => get<AdvisoryIndex>('advisories'),
    tools: () => get<ToolsIndex>('tools'),
    ready,
    loadAll() {
      return (all ??= (async () => {
        // One part after another: each yields as it goes, and the one a request needs can start at once.
        for (const part of ['lists', 'search', 'lookup', 'descriptions'] as const) await ready(part);
        const slicer = createSlicer(sliceMs);
        // The history, the registry entries and the pinned tools are checked now but decoded only when a
        // route first asks for them: the history is the largest part (tens of megabytes of JSON at 100,000
        // servers), and most instances serve none of them.
        for (const part of ['history', 'registry', 'tools'] as const) {
          const artifact = artifacts[part];
          if (artifact && !slots[part].value && !slots[part].loading) await artifact.read();
        }
        // The records' blocks not read yet (a record's blocks are checked before it is first returned).
        await artifacts.records.verifyAll(slicer);
        for (const other of artifacts.others) {
          await other.read();
          await nextSlice(slicer);
        }
      })());
    },
    loaded: () =>
      slots.lists.value !== undefined &&
      slots.search.value !== undefined &&
      slots.lookup.value !== undefined &&
      slots.descriptions.value !== undefined,
    readyAt: () => readyTimes,
  };
}
