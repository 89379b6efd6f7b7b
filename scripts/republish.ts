/**
 * `npm run republish`: one night of the pipeline (src/republish/republish.ts): rescore, test, build against
 * the last published snapshot with its guards, the platform build, deploy, check /v1/health, promote, keep.
 * Every failure is one line naming the step, and a non-zero exit; docs/pipeline.md says how to run it.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../src/errors/operator-error.js';
import { type Deployer, localDeployer, vercelDeployer } from '../src/republish/deployers.js';
import { keeperFor } from '../src/republish/keeper.js';
import { republish } from '../src/republish/republish.js';
import { takeStoreSettings } from '../src/republish/store-settings.js';
import { runMain } from './lib/main.js';
import { BUNDLE_SITE_DIR } from '../src/format/snapshot-bundle.js';
import { SIGNING_KEY_ENV, signingKeyOf } from '../src/publish/sign-bundle.js';

const USAGE = `usage: npm run republish -- --keep <git:<repository>#<branch> | folder:<path>> [options] [-- <rescore options>]
  --keep <where>           where the last published snapshot is kept (docs/pipeline.md)
  --deploy vercel|local    vercel (default): vercel build, deploy, promote; local: npm start's server on a free port
  --site-url <url>         the production address, checked after the promotion (vercel)
  --first                  publish although no snapshot is kept yet (the first night)
  --skip-rescore           republish the dataset already in --data (e.g. one made by npm run import)
  --skip-tests             do not run npm test (for the pipeline's own test only)
  --data <dir>             the dataset the build reads (default data; vercel needs the default)
  --snapshot <dir>         where the snapshot is built (default snapshot; vercel needs the default)
  --work <dir>             scratch space (default .republish)
  --bundle-out <dir>       where the signed snapshot bundle is written (default public/snapshot-bundle, the site's)
  --max-removed <share>, --max-score-changed <share>, --force   passed to npm run build (its guards)
  after --, options for npm run rescore (--registry-url, --github-api-url, --as-of, --cache, ...)`;

async function main(): Promise<number> {
  // Before any child starts: only the rescore step may see the store's settings.
  const rescoreEnv = takeStoreSettings(process.env);
  const { values, positionals } = parseArgs({
    options: {
      keep: { type: 'string' },
      deploy: { type: 'string', default: 'vercel' },
      'site-url': { type: 'string' },
      first: { type: 'boolean', default: false },
      'skip-rescore': { type: 'boolean', default: false },
      'skip-tests': { type: 'boolean', default: false },
      data: { type: 'string', default: 'data' },
      snapshot: { type: 'string', default: 'snapshot' },
      work: { type: 'string', default: '.republish' },
      'bundle-out': { type: 'string', default: path.join('public', BUNDLE_SITE_DIR) },
      'max-removed': { type: 'string' },
      'max-score-changed': { type: 'string' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.keep === undefined) throw new UsageError(`republish: --keep is required\n${USAGE}`);
  if (values.deploy !== 'vercel' && values.deploy !== 'local')
    throw new UsageError(`republish: --deploy must be vercel or local, not "${values.deploy}"\n${USAGE}`);
  const cwd = process.cwd();
  const dataDir = path.resolve(values.data);
  const snapshotDir = path.resolve(values.snapshot);
  const workDir = path.resolve(values.work);
  const defaults = dataDir === path.resolve('data') && snapshotDir === path.resolve('snapshot');
  // The platform runs a bare `npm run build`: its input paths are part of the input hash, so with Vercel the
  // night must build from the default places for that build to find the snapshot current and keep it.
  if (values.deploy === 'vercel' && !defaults)
    throw new UsageError(
      'republish: --deploy vercel builds from data/ into snapshot/ (what the platform build reads); drop --data and --snapshot',
    );
  // Another dataset folder is built as a whole: its records, registry entries, catalog and evidence.
  const buildArgs = defaults ? [] : ['--data', dataDir, '--out', snapshotDir];
  const guardArgs = [
    ...(values['max-removed'] === undefined ? [] : ['--max-removed', values['max-removed']]),
    ...(values['max-score-changed'] === undefined ? [] : ['--max-score-changed', values['max-score-changed']]),
    ...(values.force ? ['--force'] : []),
  ];
  const echo = (text: string) => process.stdout.write(text);
  const deployer: Deployer =
    values.deploy === 'vercel'
      ? vercelDeployer({ cwd, echo })
      : localDeployer({ cwd, echo, buildArgs, snapshotDir, workDir });
  // The night's signing key, from the workflow's secret: without one the night publishes no bundle (one line).
  const signingKey = process.env[SIGNING_KEY_ENV];
  const bundle =
    signingKey === undefined || signingKey === ''
      ? undefined
      : { key: signingKeyOf(signingKey), outDir: path.resolve(values['bundle-out']) };
  const result = await republish({
    bundle,
    cwd,
    dataDir,
    snapshotDir,
    buildArgs,
    workDir,
    keeper: keeperFor(values.keep, workDir),
    deployer,
    rescoreArgs: values['skip-rescore'] ? undefined : positionals,
    rescoreEnv,
    guardArgs,
    tests: !values['skip-tests'],
    first: values.first,
    siteUrl: values['site-url'],
    log: (line) => console.log(`republish: ${line}`),
    echo,
  });
  console.log(
    result.outcome === 'unchanged'
      ? `republish: snapshot ${result.snapshotId} is already the published one; nothing published`
      : `republish: published snapshot ${result.snapshotId} (after ${result.previousId ?? 'none'}) at ${result.url ?? ''}`,
  );
  return 0;
}

runMain(main);
