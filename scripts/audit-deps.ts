/**
 * CI's dependency audit: `npm audit --omit=dev` must report no known high or critical vulnerability in the
 * production dependencies. Exit 1 on such a finding (or on output it cannot read); exit 0 when the audit is
 * clean, and also when the advisory service cannot be reached (a registry mirror without the audit
 * endpoint, no network), with a loud line saying the audit was NOT performed.
 *
 *   npx tsx scripts/audit-deps.ts
 */
import { spawnSync } from 'node:child_process';
import { readAuditOutput } from './lib/audit-report.js';
import { runMain } from './lib/main.js';

const TIMEOUT_MS = 120_000;

function main(): number {
  const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8', timeout: TIMEOUT_MS });
  const outcome =
    run.error !== undefined
      ? {
          kind: 'unreachable' as const,
          reason: `npm audit did not finish within ${TIMEOUT_MS / 1000} s (${run.error.message})`,
        }
      : readAuditOutput(run.stdout);

  switch (outcome.kind) {
    case 'clean': {
      const { moderate, low, info } = outcome.counts;
      console.log(
        `npm audit: no known high or critical vulnerability in the production dependencies (moderate ${moderate}, low ${low}, info ${info})`,
      );
      return 0;
    }
    case 'vulnerable':
      console.error(
        `npm audit: ${outcome.counts.high} high and ${outcome.counts.critical} critical vulnerabilities in the production dependencies:`,
      );
      for (const finding of outcome.findings)
        console.error(`  ${finding.severity}: ${finding.name} (${finding.via.join('; ')})`);
      console.error('Run `npm audit --omit=dev` for the details and `npm audit fix` for the fixes npm knows.');
      return 1;
    case 'unreachable':
      console.log(`npm audit could not reach the advisory service (${outcome.reason}).`);
      console.log(
        'The production dependencies were NOT audited in this run; run `npm audit --omit=dev` where the registry answers.',
      );
      return 0;
    case 'unreadable':
      console.error(outcome.reason);
      return 1;
  }
}

runMain(main);
