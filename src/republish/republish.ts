/**
 * One night of the pipeline, in order, each step stopping the night with one line when it fails:
 *
 * 1. fetch the last published snapshot from where it is kept (`keeper.ts`);
 * 2. rescore (`npm run rescore`) into a staging folder;
 * 3. `npm test`, on the checkout as committed (its tests read the committed dataset, so they run before the
 *    night's dataset replaces it in the working tree);
 * 4. put the night's dataset in place and `npm run build -- --previous <last published>`, whose guards
 *    refuse an implausible change; a dataset identical to the last published one's ends the night there;
 * 5. the platform build, which must keep the checked snapshot exactly (same id);
 * 6. deploy without traffic, and check that `/v1/health` there names the new snapshot;
 * 7. promote it (and check the production address when given);
 * 8. keep the new snapshot where the next night finds it.
 *
 * Up to 6 nothing reaches the public. The steps are commands and a keeper, so a test runs every one of
 * them against stand-ins and a local server (`test/republish/`).
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { copyFileAtomically } from '../format/atomic-write.js';
import { CHANGES_FILE } from '../format/manifest.js';
import { readManifestFacts } from '../format/verified-read.js';
import { writeSnapshotBundle } from '../publish/sign-bundle.js';
import { runStep, StepFailed, type CommandOptions } from './commands.js';
import type { Deployer } from './deployers.js';
import { checkHealth, type HealthCheckOptions } from './health-check.js';
import type { SnapshotKeeper } from './keeper.js';

export interface RepublishOptions {
  /** The checkout: npm scripts run here. */
  cwd: string;
  /** The dataset the build reads (`servers.json` and `registry/servers.json`). */
  dataDir: string;
  snapshotDir: string;
  /** `npm run build` arguments naming the dataset and the snapshot (none for the defaults). */
  buildArgs: string[];
  /** Scratch space: the previous snapshot, the night's staging dataset, the keeper's repository. */
  workDir: string;
  keeper: SnapshotKeeper;
  deployer: Deployer;
  /** `npm run rescore` arguments besides `--out`; undefined: no rescoring, the dataset in `dataDir` is the night's. */
  rescoreArgs: string[] | undefined;
  /** Added to the rescore step's environment only: the store settings (`store-settings.ts`). */
  rescoreEnv?: Readonly<Record<string, string>> | undefined;
  /** Guard settings passed to the build (`--max-removed`, `--max-score-changed`, `--force`). */
  guardArgs: string[];
  /** Run `npm test` (default on; off only for the pipeline's own test). */
  tests: boolean;
  /** Allow a night with no kept snapshot (the first one): published without `--previous`. */
  first: boolean;
  /**
   * The signed snapshot bundle to write into the deployed site before the platform build (`public/snapshot-bundle/`,
   * docs/snapshot.md); undefined when the night has no signing key (`TRUST_SNAPSHOT_SIGNING_KEY`).
   */
  bundle?: { key: KeyObject; outDir: string } | undefined;
  /** The production address, checked after the promotion. */
  siteUrl?: string | undefined;
  health?: HealthCheckOptions;
  /** One line per step. */
  log: (line: string) => void;
  /** The children's output, escaped. */
  echo?: (text: string) => void;
}

export interface RepublishResult {
  /** `published`, or `unchanged` when the night's snapshot is the one already published. */
  outcome: 'published' | 'unchanged';
  snapshotId: string;
  previousId: string | undefined;
  url?: string;
}

/** The dataset's evidence folder (`data/evidence`), which the build reads and the night writes. */
const EVIDENCE_DIR = 'evidence';

/** Every JSON file of the folder `from` (none when it does not exist) copied into `to`, each file whole or not at all. */
async function copyEvidence(from: string, to: string): Promise<void> {
  const files = existsSync(from) ? (await readdir(from)).filter((file) => file.endsWith('.json')) : [];
  for (const file of files.sort()) await copyFileAtomically(path.join(from, file), path.join(to, file));
}

export async function republish(options: RepublishOptions): Promise<RepublishResult> {
  const { log } = options;
  const command: CommandOptions = { cwd: options.cwd, ...(options.echo ? { echo: options.echo } : {}) };
  const previousDir = path.join(options.workDir, 'previous');
  const stagingDir = path.join(options.workDir, 'dataset');
  await mkdir(options.workDir, { recursive: true });
  try {
    log(`fetch-previous: from ${options.keeper.label}`);
    const kept = await options.keeper.fetch(previousDir);
    if (kept === undefined && !options.first)
      throw new StepFailed(
        'fetch-previous',
        `no published snapshot is kept in ${options.keeper.label} (--first publishes the first one)`,
      );
    const previous = kept === undefined ? undefined : await readManifestFacts(kept.dir);
    const previousId = previous?.snapshot_id;
    log(
      previousId === undefined
        ? 'fetch-previous: none kept, this is the first night'
        : `fetch-previous: snapshot ${previousId}`,
    );

    if (options.rescoreArgs !== undefined) {
      log('rescore');
      await rm(stagingDir, { recursive: true, force: true });
      // The night continues its evidence (probes, tools, advisories it did not ask again) from the dataset's.
      await copyEvidence(path.join(options.dataDir, EVIDENCE_DIR), path.join(stagingDir, EVIDENCE_DIR));
      await runStep(
        'rescore',
        'npm',
        ['run', '--silent', 'rescore', '--', '--out', stagingDir, ...options.rescoreArgs],
        { ...command, env: options.rescoreEnv ?? {} },
      );
    }
    if (options.tests) {
      log('test: npm test');
      await runStep('test', 'npm', ['test'], command);
    }
    if (options.rescoreArgs !== undefined) {
      for (const file of ['servers.json', path.join('registry', 'servers.json')])
        await copyFileAtomically(path.join(stagingDir, file), path.join(options.dataDir, file));
      // The catalog the night joined (`--catalog`): its catalog-only records are built against it.
      const catalog = path.join('catalog', 'servers.json');
      if (existsSync(path.join(stagingDir, catalog)))
        await copyFileAtomically(path.join(stagingDir, catalog), path.join(options.dataDir, catalog));
      // The night's evidence (packages, advisories, probes, tools): the build publishes what is in the dataset's.
      await copyEvidence(path.join(stagingDir, EVIDENCE_DIR), path.join(options.dataDir, EVIDENCE_DIR));
    }

    log(`build: against ${previousId ?? 'nothing (first night)'}`);
    const previousArgs = kept === undefined ? [] : ['--previous', kept.dir];
    await runStep(
      'build',
      'npm',
      ['run', '--silent', 'build', '--', ...options.buildArgs, ...previousArgs, ...options.guardArgs],
      command,
    );
    const built = await readManifestFacts(options.snapshotDir);
    // The same dataset as the published snapshot's (same input hash): nothing new to publish.
    if (previous !== undefined && built.input_hash === previous.input_hash) {
      log(`unchanged: the dataset is the one snapshot ${previousId} was built from; nothing to do`);
      return { outcome: 'unchanged', snapshotId: previous.snapshot_id, previousId };
    }

    if (options.bundle === undefined)
      log('bundle: no TRUST_SNAPSHOT_SIGNING_KEY, so no signed snapshot bundle tonight');
    else {
      const index = await writeSnapshotBundle(options.snapshotDir, options.bundle.outDir, options.bundle.key);
      log(`bundle: snapshot ${index.snapshot_id} signed with key ${index.key_id} into ${options.bundle.outDir}`);
    }

    log(`platform build: ${options.deployer.label}`);
    await options.deployer.build();
    const platform = await readManifestFacts(options.snapshotDir);
    if (platform.snapshot_id !== built.snapshot_id)
      throw new StepFailed(
        'platform build',
        `it replaced the checked snapshot ${built.snapshot_id} with ${platform.snapshot_id}`,
      );

    log(`deploy: ${options.deployer.label}`);
    const deployment = await options.deployer.deploy();
    const health = await checkHealth('health check', deployment.url, built.snapshot_id, {
      ...options.health,
      headers: { ...options.health?.headers, ...deployment.headers },
    });
    log(`health check: ${deployment.url} serves snapshot ${built.snapshot_id} (status ${health.status})`);

    await options.deployer.promote(deployment);
    const promoted = 'the new snapshot is served';
    if (options.siteUrl !== undefined) {
      await checkHealth('production health check', options.siteUrl, built.snapshot_id, options.health).catch(
        (error: unknown) => {
          throw error instanceof StepFailed
            ? new StepFailed(error.step, error.reason, 'the deployment was promoted (roll back with `vercel rollback`)')
            : error;
        },
      );
      log(`production: ${options.siteUrl} serves snapshot ${built.snapshot_id}`);
    }

    const changes =
      built.files[CHANGES_FILE] === undefined ? 'no previous snapshot' : `changes.json against ${previousId}`;
    await options.keeper
      .keep(
        options.snapshotDir,
        kept?.version,
        `snapshot ${built.snapshot_id}: ${built.record_count} records, ${changes}`,
      )
      .catch((error: unknown) => {
        const reason = error instanceof StepFailed ? error.reason : String(error);
        throw new StepFailed(
          'keep',
          reason,
          `${promoted}, but it is not kept: the next night compares with ${previousId ?? 'nothing'}`,
        );
      });
    log(`keep: snapshot ${built.snapshot_id} kept in ${options.keeper.label}`);
    return { outcome: 'published', snapshotId: built.snapshot_id, previousId, url: deployment.url };
  } finally {
    await options.deployer.close();
    await rm(previousDir, { recursive: true, force: true });
    await rm(stagingDir, { recursive: true, force: true });
  }
}
