/**
 * The nightly workflow (`.github/workflows/republish.yml`) runs what the project ships: `npm run republish`
 * with options the script accepts, on a schedule, with every secret it reads named in docs/pipeline.md, the
 * tests on (no `--skip-tests`), and only the permission the keeper needs.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { STORE_SETTINGS } from '../../src/republish/store-settings.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TEXT = readFileSync(path.join(REPO, '.github/workflows/republish.yml'), 'utf8');

const WorkflowSchema = z.object({
  on: z.object({ schedule: z.array(z.object({ cron: z.string() })).min(1) }),
  permissions: z.record(z.string(), z.string()),
  jobs: z.object({
    republish: z.object({
      container: z.string().optional(),
      steps: z.array(z.object({ run: z.string().optional(), env: z.record(z.string(), z.string()).optional() })),
    }),
  }),
});
const workflow = WorkflowSchema.parse(parse(TEXT));
const step = workflow.jobs.republish.steps.find((s) => s.run?.includes('npm run republish'));

describe('the nightly republish workflow', () => {
  it('runs on a nightly cron and may write only the repository contents (the kept branch)', () => {
    expect(workflow.on.schedule[0]?.cron).toMatch(/^\d{1,2} \d{1,2} \* \* \*$/);
    expect(workflow.permissions).toEqual({ contents: 'write' });
  });

  it('runs npm run republish with options the script accepts, its tests on, kept on the branch published-snapshot', () => {
    expect(step).toBeDefined();
    const run = step!.run!;
    expect(run).not.toContain('--skip-tests');
    expect(run).toMatch(/--keep "git:https:\/\/github\.com\/\$REPOSITORY\.git#published-snapshot"/);
    const usage = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/republish.ts', '--help'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    for (const option of run.match(/--[a-z][a-z-]+/g) ?? []) expect(usage, option).toContain(option);
  });

  it('names in docs/pipeline.md every secret and setting it reads', () => {
    const docs = readFileSync(path.join(REPO, 'docs/pipeline.md'), 'utf8');
    const names = [...TEXT.matchAll(/\$\{\{ (?:secrets|vars)\.([A-Z_]+) \}\}/g)].map((match) => match[1]!);
    expect(names).toEqual(expect.arrayContaining(['VERCEL_TOKEN', 'SCORING_GITHUB_TOKEN']));
    for (const name of names) expect(docs, name).toContain(`\`${name}\``);
  });

  it('gives the night the store settings the service reads, and scripts/republish.ts keeps them for the rescore alone', () => {
    // The names the service's configuration reads, every one set from the repository's secrets or variables.
    const config = readFileSync(path.join(REPO, 'src/service/config.ts'), 'utf8');
    for (const name of STORE_SETTINGS) {
      expect(config, name).toContain(`${name}: optionalText`);
      expect(step?.env?.[name], name).toMatch(new RegExp(`^\\$\\{\\{ (secrets|vars)\\.${name} \\}\\}$`));
    }
    // Secrets for what reaches the store, variables for the rest.
    expect(step?.env?.REDIS_URL).toContain('secrets.');
    expect(step?.env?.UPSTASH_REDIS_REST_TOKEN).toContain('secrets.');
    const script = readFileSync(path.join(REPO, 'scripts/republish.ts'), 'utf8');
    expect(script.indexOf('takeStoreSettings(process.env)')).toBeGreaterThan(script.indexOf('async function main'));
    expect(script).toMatch(/^\s+rescoreEnv,$/m);
  });

  it('runs its test step where the suite can run under CI: as root in Debian, after .ci/install', () => {
    // The suite refuses to skip the Redis and browser tests when CI is set, which it is in a workflow.
    expect(workflow.jobs.republish.container).toMatch(/^node:20-bookworm$/);
    const steps = workflow.jobs.republish.steps.map((s) => s.run ?? '');
    const install = steps.findIndex((run) => run.trim() === 'bash .ci/install');
    expect(install).toBeGreaterThanOrEqual(0);
    expect(install).toBeLessThan(steps.findIndex((run) => run.includes('npm run republish')));
    const script = readFileSync(path.join(REPO, '.ci/install'), 'utf8');
    for (const needed of ['redis-server', 'chromium', 'python3']) expect(script).toContain(needed);
  });
});

describe('the CI workflow', () => {
  it('runs .ci/run, which runs exactly the README test command, on every push and pull request', () => {
    const ci = z
      .object({
        on: z.object({ push: z.unknown(), pull_request: z.unknown() }),
        jobs: z.object({
          test: z.object({ container: z.string(), steps: z.array(z.object({ run: z.string().optional() })) }),
        }),
      })
      .parse(parse(readFileSync(path.join(REPO, '.github/workflows/ci.yml'), 'utf8')));
    expect(ci.jobs.test.container).toBe('node:20-bookworm');
    expect(ci.jobs.test.steps.some((s) => s.run?.trim() === 'bash .ci/run')).toBe(true);
    const run = readFileSync(path.join(REPO, '.ci/run'), 'utf8').trim().split('\n');
    expect(run.at(-1)).toBe('npm test');
    expect(readFileSync(path.join(REPO, 'README.md'), 'utf8')).toMatch(/^npm test\s/m);
  });
});
