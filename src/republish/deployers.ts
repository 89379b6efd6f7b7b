/**
 * Where a night's snapshot goes once built and tested, behind one interface:
 *
 * - `vercel`: the platform build (`vercel pull`, then `vercel build --prod`, which runs the same
 *   `npm run build` and keeps the checked snapshot as it is), the upload of what was built
 *   (`vercel deploy --prebuilt --prod --skip-domain`: a production deployment that takes no traffic yet),
 *   and, once its `/v1/health` names the new snapshot, `vercel promote`. The token is `VERCEL_TOKEN` from
 *   the environment, which the CLI reads itself: it is never on a command line.
 * - `local`: the same platform build command (`npm run build` with the night's arguments), and the
 *   service started as `npm start` starts it, on a free port, serving the new snapshot: everything but the
 *   upload, for the two-nights test and a dry run.
 */
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import * as z from 'zod';
import { runStep, StepFailed, type CommandOptions } from './commands.js';

export interface Deployment {
  /** The address to ask `/v1/health` of before any traffic goes to it. */
  url: string;
  /** Headers that ask needs (a deployment-protection bypass). */
  headers: Record<string, string>;
}

export interface Deployer {
  readonly label: string;
  /** The platform build, with the snapshot already built in place. */
  build(): Promise<void>;
  /** Put the build where it can be asked, without sending traffic to it. */
  deploy(): Promise<Deployment>;
  /** Send the traffic to it. */
  promote(deployment: Deployment): Promise<void>;
  /** Stop whatever it started. */
  close(): Promise<void>;
}

const DeploymentUrlSchema = z.url({ protocol: /^https$/ });

/** The Vercel deployer; `VERCEL_TOKEN` must be set (checked before anything runs). */
export function vercelDeployer(options: CommandOptions, env: NodeJS.ProcessEnv = process.env): Deployer {
  if (!env.VERCEL_TOKEN)
    throw new StepFailed('deploy', 'VERCEL_TOKEN is not set (a Vercel access token; see docs/pipeline.md)');
  const bypass = env.VERCEL_AUTOMATION_BYPASS_SECRET;
  return {
    label: 'Vercel',
    async build() {
      await runStep('platform build', 'vercel', ['pull', '--yes', '--environment=production'], options);
      await runStep('platform build', 'vercel', ['build', '--prod'], options);
    },
    async deploy() {
      const { stdout } = await runStep(
        'deploy',
        'vercel',
        ['deploy', '--prebuilt', '--prod', '--skip-domain'],
        options,
      );
      // The CLI prints the deployment's URL alone on stdout.
      const url = stdout.trim().split('\n').at(-1)?.trim() ?? '';
      if (!DeploymentUrlSchema.safeParse(url).success)
        throw new StepFailed('deploy', 'vercel deploy did not print a deployment URL');
      const headers: Record<string, string> = bypass ? { 'x-vercel-protection-bypass': bypass } : {};
      return { url, headers };
    },
    async promote(deployment) {
      await runStep('promote', 'vercel', ['promote', deployment.url, '--yes'], options);
    },
    async close() {},
  };
}

/**
 * The local deployer: `buildArgs` are the night's `npm run build` arguments without `--previous` (what the
 * platform runs), `snapshotDir` the snapshot the server is started on.
 */
export function localDeployer(
  options: CommandOptions & { buildArgs: string[]; snapshotDir: string; workDir: string },
): Deployer {
  let server: ChildProcess | undefined;
  return {
    label: 'a local server',
    async build() {
      await runStep('platform build', 'npm', ['run', '--silent', 'build', '--', ...options.buildArgs], options);
    },
    async deploy() {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join('scripts', 'serve.ts')], {
        cwd: options.cwd,
        env: {
          ...process.env,
          HOST: '127.0.0.1',
          PORT: '0',
          SNAPSHOT_DIR: options.snapshotDir,
          // A key of its own, so the server neither makes one nor writes the checkout's key file.
          API_KEYS: `republish-${randomBytes(16).toString('hex')}`,
          KEYS_FILE: path.join(options.workDir, 'keys.json'),
          STORE: 'memory',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      server = child;
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new StepFailed('deploy', 'the local server did not start within 60 s')),
          60_000,
        );
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          output += chunk;
          const match = /Listening on (http:\/\/\S+)/.exec(output);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(
            new StepFailed('deploy', `the local server exited with ${code}: ${output.trim().split('\n').at(-1) ?? ''}`),
          );
        });
      });
      // Keep draining its request log so a full pipe never blocks it.
      child.stdout.resume();
      return { url, headers: {} };
    },
    async promote() {},
    async close() {
      const child = server;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
