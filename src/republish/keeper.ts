/**
 * Where the last published snapshot is kept between nights, so the next night builds `--previous` against
 * it (its history and what changed). Two backends behind one small interface:
 *
 * - `git:<repository URL or path>#<branch>`: the snapshot's files as the only commit of a branch (the real
 *   one: the project's own GitHub repository, branch `published-snapshot`). Each night pushes a new
 *   parentless commit with `--force-with-lease` on the commit it started from: the branch moves only when
 *   no other run moved it since, so two runs can never both publish over each other, and old snapshots
 *   are left for git to collect (the snapshot's own `history.jsonl` is the record of the past).
 * - `folder:<path>`: a folder on this machine (a self-hosted runner, a local try), replaced atomically.
 *
 * Why a branch (docs/pipeline.md): it needs nothing but the token the workflow already has, a push is
 * atomic and conditional, it never expires (Actions artifacts do, after at most 90 days), and anyone can
 * fetch the live snapshot with `git fetch`.
 */
import { cp, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_FILE } from '../format/manifest.js';
import { readManifestFacts } from '../format/verified-read.js';
import { runCommand, StepFailed, lastLine } from './commands.js';

export interface KeptSnapshot {
  /** The folder it was fetched into. */
  dir: string;
  /** What `keep` must find still kept to replace it (a commit, a snapshot id). */
  version: string;
}

export interface SnapshotKeeper {
  /** How the log names it (never a token). */
  readonly label: string;
  /** The kept snapshot, fetched into `dir`; undefined when none is kept yet (the first night). */
  fetch(dir: string): Promise<KeptSnapshot | undefined>;
  /** Keep the snapshot in `dir`, provided what is kept is still `previous` (undefined: nothing kept). */
  keep(dir: string, previous: string | undefined, message: string): Promise<void>;
}

/** Parse `--keep`: `git:<url>#<branch>` or `folder:<path>`. */
export function keeperFor(spec: string, workDir: string, env: NodeJS.ProcessEnv = process.env): SnapshotKeeper {
  const git = /^git:(.+)#([A-Za-z0-9._/-]+)$/.exec(spec);
  if (git) return gitKeeper(git[1]!, git[2]!, path.join(workDir, 'keeper.git'), env);
  const folder = /^folder:(.+)$/.exec(spec);
  if (folder) return folderKeeper(path.resolve(folder[1]!));
  throw new StepFailed('keep', `--keep must be git:<repository>#<branch> or folder:<path>, not "${spec}"`);
}

/** The files of a snapshot folder that are kept: the manifest and the files it names (no local cache). */
async function snapshotFiles(dir: string): Promise<string[]> {
  const manifest = await readManifestFacts(dir);
  return [MANIFEST_FILE, ...Object.keys(manifest.files)];
}

function folderKeeper(root: string): SnapshotKeeper {
  const readId = async (dir: string) => {
    return (await readManifestFacts(dir)).snapshot_id;
  };
  return {
    label: `folder ${root}`,
    async fetch(dir) {
      const exists = await readdir(root).then(
        () => true,
        () => false,
      );
      if (!exists) return undefined;
      await rm(dir, { recursive: true, force: true });
      await cp(root, dir, { recursive: true });
      return { dir, version: await readId(dir) };
    },
    async keep(dir, previous) {
      const now = await readId(root).catch(() => undefined);
      if (now !== previous)
        throw new StepFailed('keep', `${root} changed while this run went on (now ${now ?? 'none'})`);
      const staging = `${root}.new-${process.pid}`;
      await rm(staging, { recursive: true, force: true });
      await mkdir(staging, { recursive: true });
      for (const name of await snapshotFiles(dir)) await cp(path.join(dir, name), path.join(staging, name));
      const old = `${root}.old-${process.pid}`;
      if (previous !== undefined) await rename(root, old);
      await rename(staging, root);
      await rm(old, { recursive: true, force: true });
    },
  };
}

/**
 * For an https GitHub URL, `KEEP_GIT_TOKEN` (the workflow's own token, which may push this repository; not
 * `GITHUB_TOKEN`, which the rescoring reads GitHub's API with) as the header actions/checkout sends: given
 * to git through its environment (GIT_CONFIG_*), never on a command line or in a URL, so no log shows it.
 */
function gitAuthEnv(url: string, env: NodeJS.ProcessEnv): Record<string, string> {
  const token = env.KEEP_GIT_TOKEN;
  if (!token || !/^https:\/\/github\.com\//.test(url)) return {};
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.https://github.com/.extraheader',
    GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
  };
}

function gitKeeper(url: string, branch: string, repo: string, env: NodeJS.ProcessEnv): SnapshotKeeper {
  const ref = `refs/heads/${branch}`;
  const gitEnv = {
    ...gitAuthEnv(url, env),
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'republish',
    GIT_AUTHOR_EMAIL: 'republish@localhost',
    GIT_COMMITTER_NAME: 'republish',
    GIT_COMMITTER_EMAIL: 'republish@localhost',
  };
  const git = async (step: string, args: string[], extra: Record<string, string> = {}) => {
    const result = await runCommand('git', args, { cwd: repo, env: { ...gitEnv, ...extra } }).catch(
      (error: unknown) => {
        throw new StepFailed(step, `cannot run git (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
      },
    );
    return result;
  };
  const must = async (step: string, args: string[], extra: Record<string, string> = {}) => {
    const result = await git(step, args, extra);
    if (result.code !== 0)
      throw new StepFailed(step, `git ${args[0]} exited with ${result.code}: ${lastLine(result.stderr)}`);
    return result.stdout.trim();
  };
  const label = `branch ${branch} of ${url.replace(/\/\/[^@/]*@/, '//')}`;
  return {
    label,
    async fetch(dir) {
      await rm(repo, { recursive: true, force: true });
      await mkdir(repo, { recursive: true });
      await must('fetch-previous', ['init', '--quiet']);
      // Exit 2: the remote answered and has no such branch (the first night); any other failure is a failure.
      const listed = await git('fetch-previous', ['ls-remote', '--exit-code', url, ref]);
      if (listed.code === 2) return undefined;
      if (listed.code !== 0)
        throw new StepFailed(
          'fetch-previous',
          `git ls-remote ${label} exited with ${listed.code}: ${lastLine(listed.stderr)}`,
        );
      await must('fetch-previous', ['fetch', '--quiet', '--depth', '1', url, `${ref}:refs/kept`]);
      const commit = await must('fetch-previous', ['rev-parse', 'refs/kept']);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      await must('fetch-previous', ['--work-tree', dir, 'checkout', 'refs/kept', '--', '.'], {
        GIT_INDEX_FILE: path.join(repo, 'fetch.index'),
      });
      return { dir, version: commit };
    },
    async keep(dir, previous, message) {
      const index = { GIT_INDEX_FILE: path.join(repo, 'keep.index') };
      await mkdir(repo, { recursive: true });
      await must('keep', ['init', '--quiet']);
      await rm(index.GIT_INDEX_FILE, { force: true });
      await must('keep', ['--work-tree', dir, 'add', '--', ...(await snapshotFiles(dir))], index);
      const tree = await must('keep', ['write-tree'], index);
      const commit = await must('keep', ['commit-tree', tree, '-m', message]);
      // The lease: the branch must still be the commit this night started from (or still absent).
      const pushed = await git('keep', [
        'push',
        '--quiet',
        `--force-with-lease=${ref}:${previous ?? ''}`,
        url,
        `${commit}:${ref}`,
      ]);
      if (pushed.code === 0) return;
      const now = (await git('keep', ['ls-remote', url, ref])).stdout.split('\t')[0]?.trim() || undefined;
      if (now !== previous)
        throw new StepFailed(
          'keep',
          `${label} moved since this night fetched it (now ${now ?? 'absent'}): another run published`,
        );
      throw new StepFailed('keep', `git push exited with ${pushed.code}: ${lastLine(pushed.stderr)}`);
    },
  };
}
