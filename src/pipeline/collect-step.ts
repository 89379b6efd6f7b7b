/**
 * The night's collect step: the registry collected with the cache's last collection, that collection kept in
 * the cache for the next night, and its entries in a file of the night's (`EntryFile`), so that no step after
 * this one holds them all.
 */
import { readRegistryCache, writeRegistryCache } from './cache.js';
import { collect, type CollectOptions, type CollectResult } from './collect.js';
import { EntryFile } from './entry-file.js';
import { PipelineError } from './errors.js';
import type { HttpPolicy } from './http-json.js';

export interface CollectStepOptions {
  registryUrl: string;
  cache: string;
  registryPolicy: HttpPolicy;
  collect?: Pick<CollectOptions, 'minTotalBound'> | undefined;
}

export async function collectStep(
  options: CollectStepOptions,
  notes: string[],
): Promise<{ collected: Omit<CollectResult, 'collection'>; entries: EntryFile }> {
  const registryCache = readRegistryCache(options.cache);
  if (registryCache.note) notes.push(registryCache.note);
  const { collection, ...collected } = await collect({
    baseUrl: options.registryUrl,
    previous: registryCache.collection,
    policy: options.registryPolicy,
    ...options.collect,
  });
  // An empty registry is an outage, not a registry with no servers: never publish it.
  if (collection.entries.length === 0) {
    throw new PipelineError('the registry listed no active servers; nothing written');
  }
  writeRegistryCache(options.cache, collection);
  return { collected, entries: EntryFile.write(options.cache, collection.entries) };
}
