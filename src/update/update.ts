/**
 * `mcp-trust-score update`, and the one try the checker and the MCP server make when their data is old:
 * download the published bundle, verify its signature and every file's hash, refuse a snapshot older than the
 * one held (no downgrade), and install it in the cache (`snapshot-cache.ts`). Any failure is a BundleError
 * (one line) and leaves the held snapshot as it was: nothing is installed before every check passed.
 */
import { MANIFEST_FILE } from '../format/manifest.js';
import {
  BUNDLE_INDEX_FILE,
  BUNDLE_LIMITS,
  BUNDLE_SIGNATURE_FILE,
  type TrustedKeys,
} from '../format/snapshot-bundle.js';
import { bundleBaseUrl, createDownloader, type DownloadRules } from './download.js';
import { type HeldSnapshot, installSnapshot, isNewer } from './snapshot-cache.js';
import { BundleError, checkBundleFile, checkManifest, verifyIndex } from './verify-bundle.js';

export interface UpdateSettings {
  url: string;
  /** The cache folder (`cacheRoot`). */
  root: string;
  keys: TrustedKeys;
  rules: DownloadRules;
  /** The whole update's deadline. */
  timeoutMs: number;
  /** The newest snapshot held now (cached or packed): the bundle must be newer. */
  held: HeldSnapshot;
  nowMs?: number;
}

export interface UpdateOutcome {
  outcome: 'updated' | 'current';
  snapshotId: string;
  scoredAt: string;
}

const date = (iso: string) => iso.slice(0, 10);

export async function updateSnapshot(settings: UpdateSettings): Promise<UpdateOutcome> {
  const base = bundleBaseUrl(settings.url, settings.rules);
  const download = createDownloader(base, settings.rules, settings.timeoutMs);
  try {
    const indexBytes = await download.get(BUNDLE_INDEX_FILE, BUNDLE_LIMITS.indexBytes);
    const signature = await download.get(BUNDLE_SIGNATURE_FILE, BUNDLE_LIMITS.signatureBytes);
    const index = verifyIndex(indexBytes, signature.toString('utf8'), settings.keys, settings.nowMs);
    const { held } = settings;
    if (index.snapshot_id === held.snapshotId)
      return { outcome: 'current', snapshotId: index.snapshot_id, scoredAt: index.scored_at };
    const offered = { scoredAt: index.scored_at, generatedAt: index.generated_at };
    if (!isNewer(offered, held))
      throw new BundleError(
        `the published snapshot ${index.snapshot_id} (scored ${date(index.scored_at)}) is not newer than the one held ` +
          `(${held.snapshotId}, scored ${date(held.scoredAt)}); kept the held one`,
      );
    const files = new Map<string, Buffer>();
    for (const entry of index.files) {
      const bytes = await download.get(entry.name, entry.bytes);
      checkBundleFile(entry, bytes);
      files.set(entry.name, bytes);
    }
    checkManifest(index, files.get(MANIFEST_FILE)!);
    files.set(BUNDLE_INDEX_FILE, indexBytes);
    files.set(BUNDLE_SIGNATURE_FILE, signature);
    try {
      await installSnapshot(settings.root, index, files);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new BundleError(`the cache folder ${settings.root} cannot be written (${code})`);
    }
    return { outcome: 'updated', snapshotId: index.snapshot_id, scoredAt: index.scored_at };
  } finally {
    download.close();
  }
}
