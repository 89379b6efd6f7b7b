/**
 * `npm run build:platform`: the deployment's build command (`vercel.json` `buildCommand`). It never makes a
 * snapshot. The snapshot a deployment serves is the one a release built and checked (docs/snapshot.md), handed
 * to the platform by `vercel build` in the release's checkout and deployed with `vercel deploy --prebuilt`;
 * this only confirms that `snapshot/` is there and current for the committed dataset, and otherwise fails in
 * one line. A build from a Git push (where `snapshot/` is never committed) therefore fails instead of
 * serving a snapshot nobody checked; `vercel.json` also turns Git deployments off (`git.deploymentEnabled`).
 */
import { OperatorError } from '../src/errors/operator-error.js';
import { readManifest } from '../src/format/verified-read.js';
import { CHANGES_FILE } from '../src/format/manifest.js';
import {
  DEFAULT_INPUT_GLOB,
  DEFAULT_SNAPSHOT_DIR,
  defaultCatalogData,
  defaultRegistryData,
} from '../src/format/paths.js';
import { snapshotIsStale } from '../src/snapshot-build/staleness.js';
import { runMain } from './lib/main.js';

/** The line a build without a checked snapshot fails with. */
export const NO_CHECKED_SNAPSHOT =
  'build:platform: snapshot/ is missing or not current for data/; the deployment never builds a snapshot itself. ' +
  'Build and check it first (npm run build, docs/snapshot.md), then vercel build and vercel deploy --prebuilt';

runMain(async () => {
  const [registry, catalog] = [await defaultRegistryData(), await defaultCatalogData()];
  if (await snapshotIsStale(DEFAULT_SNAPSHOT_DIR, DEFAULT_INPUT_GLOB, registry, undefined, catalog)) {
    throw new OperatorError(NO_CHECKED_SNAPSHOT);
  }
  const manifest = await readManifest(DEFAULT_SNAPSHOT_DIR);
  console.log(
    `build:platform: deploying snapshot ${manifest.snapshot_id} as it was built` +
      `${manifest.files[CHANGES_FILE] ? ', with its changes.json' : ''}`,
  );
});
