/**
 * `mcp-trust-score check [files...]`: check the MCP servers of configuration files against a policy with one
 * `POST /v1/check` (more than 100 servers go in batches), and report. Exit codes, whatever the format: 0 the
 * verdict is pass, 1 it is fail, 2 the check could not be made (a bad file or option, no key, the API
 * unreachable or refusing). The check is asked of a trust source: the live API when `TRUST_API_URL` is set,
 * else the snapshot shipped in the package, offline (`src/client/open-source.ts`), as the MCP wrapper does.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { TrustApiError } from '../client/client.js';
import { offlineNotice, type TrustSource } from '../client/trust-source.js';
import { OperatorError } from '../errors/operator-error.js';
import {
  CHECK_LIMITS,
  type CheckResult,
  DEFAULT_POLICY,
  IdentifierError,
  type Policy,
  PolicySchema,
  policyTarget,
  UNKNOWN_VERDICTS,
  unknownVerdict,
} from '../model/check.js';
import { findPolicyFile, PolicyFileError, readPolicyFile } from './policy-file.js';
import { unknownFlagsProblem, VOCABULARY_FLAGS } from '../model/flag-names.js';
import { type ConfigEntry, DEFAULT_CONFIG_FILES } from './config-files.js';
import { printable } from '../model/printable.js';
import { readConfigFile } from './read-config.js';
import { itemForEntry } from './entries.js';
import type { FileOutcome } from './user-configs.js';
import { formatReport, REPORT_FORMATS, type Report, type ReportFormat, type ReportRow } from './report.js';

export const CHECK_USAGE = `usage: mcp-trust-score check [files...] [options]

Checks the MCP servers of configuration files (default: whichever of ${DEFAULT_CONFIG_FILES.join(', ')}
exist here) against a policy. Offline, from the scores shipped in this package, unless TRUST_API_URL is
set: then with the trust-score API there (with or without /v1), using the key in TRUST_API_KEY.

  --user                also check the user-level configurations of the MCP clients on this machine (Claude
                        Desktop, Claude Code with each project's servers, Cursor, VS Code, Windsurf, Gemini CLI,
                        Zed, Continue, Codex, opencode, Kiro, Antigravity, Amazon Q Developer, GitHub Copilot,
                        Amp, Cline, Roo Code)
  --min-score N         fail a server whose trust score is below N (0-100; default 40)
  --deny-flags A,B      fail a server carrying any of these flags (a flag no scored server has is an error)
  --require-verified    fail a server whose publisher is not verified
  --unknown V           what a server that matches no scored server gets: warn (default), fail or pass
  --strict              fail servers that match no scored server and scores resting on too little evidence
  --allow X             always pass X: a server name, a package (npm:x), a package URL (pkg:npm/x) or a
                        remote URL (repeatable; known-malicious and taken-down servers still fail)
  --policy FILE         read the policy from FILE (default: .mcp-trust.json, .mcp-trust.yaml or .mcp-trust.yml
                        here, if one exists); options given here override its members
  --format F            text (default), json, sarif or github
  --output FILE         write the report to FILE instead of stdout
  --offline             never touch the network: the newest snapshot held, however old (TRUST_OFFLINE=1 too)
  --help, --version     this help, the version

With no options the policy fails on known-bad evidence (known malware, a takedown, a vulnerable version, a
measured score below 40) and warns on servers that match no scored server and on scores resting on too little
measured evidence, saying what is missing; --strict makes those fail. Every report begins with the policy.

Exit codes: 0 pass, 1 fail, 2 the check could not be made (a configuration file could not be read included).`;

/** The check could not be made (a bad option, file or key, the API unreachable): exit code 2, one escaped line. */
export class CheckError extends OperatorError {
  override name = 'CheckError';
  constructor(message: string) {
    // Line breaks folded as every operator error folds them; whatever else is unprintable, escaped.
    super(printable(message.replace(/\s*\n\s*/g, '; ')), { exitCode: 2 });
  }
}

export interface CheckOptions {
  files: string[];
  /** Also read the user-level configuration files of the MCP clients (`user-configs.ts`). */
  user?: boolean;
  /** The policy the options set (defaults filled in); a policy file's members are under them. */
  policy: Policy;
  /** The members the command line set, which win over a policy file's. */
  given: (keyof Policy)[];
  /** `--policy FILE`; otherwise a policy file at the checked folder's root is read if there is one. */
  policyFile?: string;
  format: ReportFormat;
  output?: string;
  /** `--offline`: the trust source may not touch the network. */
  offline?: boolean;
}

/** The command line → options; a UsageError (exit 2) for anything it cannot use. */
export function parseCheckArgs(argv: readonly string[]): CheckOptions {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      'min-score': { type: 'string' },
      'deny-flags': { type: 'string' },
      'require-verified': { type: 'boolean' },
      user: { type: 'boolean' },
      unknown: { type: 'string' },
      strict: { type: 'boolean' },
      allow: { type: 'string', multiple: true },
      policy: { type: 'string' },
      format: { type: 'string' },
      output: { type: 'string' },
      offline: { type: 'boolean' },
    },
  });
  const policy: Policy = { ...DEFAULT_POLICY };
  const given: (keyof Policy)[] = [];
  if (values['min-score'] !== undefined) {
    given.push('min_score');
    const text = values['min-score'];
    if (!/^\d{1,3}$/.test(text) || Number(text) > 100)
      throw new CheckError(`--min-score must be a whole number from 0 to 100, not "${text}"`);
    policy.min_score = Number(text);
  }
  if (values['deny-flags'] !== undefined) {
    const flags = values['deny-flags'].split(',').map((flag) => flag.trim().toUpperCase());
    if (flags.some((flag) => !/^[A-Z][A-Z0-9_]*$/.test(flag))) {
      throw new CheckError('--deny-flags must be flag names separated by commas, such as NO_SOURCE,DEAD_ENTRY');
    }
    policy.deny_flags = flags;
    given.push('deny_flags');
  }
  if (values['require-verified']) {
    policy.require_verified_publisher = true;
    given.push('require_verified_publisher');
  }
  if (values.strict) {
    policy.strict = true;
    given.push('strict');
  }
  if (values.allow !== undefined) {
    for (const text of values.allow) {
      try {
        policyTarget(text);
      } catch (error) {
        if (error instanceof IdentifierError) throw new CheckError(`--allow: ${error.message}`);
        throw error;
      }
    }
    policy.allow = values.allow.map((text) => text.trim());
    given.push('allow');
  }
  if (values.unknown !== undefined) {
    given.push('unknown');
    if (!(UNKNOWN_VERDICTS as readonly string[]).includes(values.unknown)) {
      throw new CheckError(`--unknown must be one of ${UNKNOWN_VERDICTS.join(', ')}, not "${values.unknown}"`);
    }
    policy.unknown = values.unknown as Policy['unknown'];
  }
  const format = values.format ?? 'text';
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
    throw new CheckError(`--format must be one of ${REPORT_FORMATS.join(', ')}, not "${format}"`);
  }
  if (policy.strict && policy.unknown !== undefined && policy.unknown !== 'fail') {
    throw new CheckError('--strict makes unknown servers fail: drop --unknown or --strict');
  }
  return {
    files: positionals,
    ...(values.user ? { user: true } : {}),
    policy,
    given,
    ...(values.policy === undefined ? {} : { policyFile: values.policy }),
    format: format as ReportFormat,
    ...(values.output ? { output: values.output } : {}),
    ...(values.offline ? { offline: true } : {}),
  };
}

/**
 * The files to read: those named (read wherever they are), or the default ones that exist in `cwd` (read
 * only when they really lie in it).
 */
function filesToRead(options: CheckOptions, cwd: string): { file: string; within?: string }[] {
  if (options.files.length > 0) return options.files.map((file) => ({ file }));
  const found = DEFAULT_CONFIG_FILES.filter((file) => existsSync(`${cwd}/${file}`));
  if (found.length === 0 && !options.user) {
    throw new CheckError(`no MCP configuration file here (looked for ${DEFAULT_CONFIG_FILES.join(', ')}); name one`);
  }
  return found.map((file) => ({ file, within: cwd }));
}

/** The result of an entry the check cannot identify, judged as unknown by the policy. */
function notCheckable(entry: ConfigEntry, reason: string, policy: Policy): CheckResult {
  return {
    input: entry.name,
    server: null,
    trust_score: null,
    trust_label: null,
    verdict: unknownVerdict(policy),
    reasons: [`not checkable: ${reason}; the policy treats servers it cannot identify as "${unknownVerdict(policy)}"`],
  };
}

/**
 * Refuse a `--deny-flags` name no scored server has ever carried: the vocabulary's flags are known here; a
 * name outside it is held against the flags the source's snapshot counts (one statistics request).
 */
async function checkDenyFlags(policy: Policy, client: TrustSource, what = '--deny-flags'): Promise<void> {
  const flags = policy.deny_flags ?? [];
  if (unknownFlagsProblem(what, flags, VOCABULARY_FLAGS) === undefined) return;
  const stats = await client.stats();
  const known = new Set([...VOCABULARY_FLAGS, ...Object.keys(stats.flag_summary).map((flag) => flag.toUpperCase())]);
  const problem = unknownFlagsProblem(what, flags, known);
  if (problem !== undefined) throw new CheckError(problem);
}

/**
 * The policy the check applies: the policy file's (named by `--policy`, or found at the checked folder's root)
 * under the members the command line set. A policy file that cannot be used stops the check (exit 2): a gate
 * never runs on a policy other than the one the repository keeps.
 */
async function resolvePolicy(options: CheckOptions, cwd: string): Promise<{ policy: Policy; policyFile?: string }> {
  const found = options.policyFile ?? findPolicyFile(cwd);
  if (found === undefined) return { policy: options.policy };
  let fromFile: Policy;
  try {
    fromFile =
      options.policyFile === undefined ? await readPolicyFile(found, cwd, cwd) : await readPolicyFile(found, cwd);
  } catch (error) {
    if (error instanceof PolicyFileError) throw new CheckError(error.message);
    throw error;
  }
  const merged: Policy = { ...fromFile };
  for (const member of options.given) {
    (merged as Record<string, unknown>)[member] = options.policy[member];
  }
  if (options.given.includes('allow')) merged.allow = [...(fromFile.allow ?? []), ...(options.policy.allow ?? [])];
  const checked = PolicySchema.safeParse(merged);
  if (!checked.success)
    throw new CheckError(`${found} with the command line's options: ${checked.error.issues[0]!.message}`);
  return { policy: checked.data, policyFile: found };
}

/**
 * Read the files, ask the trust source, build the report. `env` is where `--user` finds the home folder (`HOME`,
 * `APPDATA`, `XDG_CONFIG_HOME`).
 */
export async function runCheck(
  options: CheckOptions,
  client: TrustSource,
  cwd = process.cwd(),
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<Report> {
  const { policy, policyFile } = await resolvePolicy(options, cwd);
  options = { ...options, policy };
  const denyFlagsFrom =
    policyFile !== undefined && !options.given.includes('deny_flags')
      ? `${policyFile}: policy.deny_flags`
      : '--deny-flags';
  await checkDenyFlags(options.policy, client, denyFlagsFrom);
  const entries: ConfigEntry[] = [];
  const files: FileOutcome[] = [];
  for (const { file, within } of filesToRead(options, cwd)) {
    const found = await readConfigFile(file, { cwd, ...(within === undefined ? {} : { within }) });
    for (const entry of found) entries.push(entry);
    files.push({ file, client: 'project', read: true, servers: found.length });
  }
  if (options.user) {
    // Loaded only for --user: the clients' YAML and TOML parsers are most of what a check would load, and
    // the project files a CI job checks are JSON.
    const { readUserConfigs } = await import('./user-configs.js');
    const user = await readUserConfigs(env);
    // One by one: a file of a hundred thousand servers would overflow a spread's arguments.
    for (const entry of user.entries) entries.push(entry);
    for (const file of user.files) files.push(file);
    // Nothing to read anywhere is a check that was not made, not a pass on nothing.
    if (files.length === 0) {
      throw new CheckError(
        `no MCP configuration file here (looked for ${DEFAULT_CONFIG_FILES.join(', ')}) and none of the MCP clients' user configurations exists (check --help lists them)`,
      );
    }
  }
  const rows: (ReportRow | undefined)[] = entries.map(() => undefined);
  const checkable: { index: number; item: NonNullable<ReportRow['item']> }[] = [];
  entries.forEach((entry, index) => {
    const mapped = itemForEntry(entry);
    if (mapped.ok) checkable.push({ index, item: mapped.item });
    else rows[index] = { entry, result: notCheckable(entry, mapped.reason, options.policy) };
  });
  for (let start = 0; start < checkable.length; start += CHECK_LIMITS.maxItems) {
    const batch = checkable.slice(start, start + CHECK_LIMITS.maxItems);
    const answer = await client.check({ servers: batch.map(({ item }) => item), policy: options.policy });
    batch.forEach(({ index, item }, position) => {
      const result = answer.results[position];
      if (result === undefined) throw new Error('the API answered fewer results than items');
      rows[index] = { entry: entries[index]!, item, result };
    });
  }
  const complete = rows.filter((row): row is ReportRow => row !== undefined);
  // Fail closed: a file that should have been read and could not be (too large, unreadable, unparsable) may
  // hold the very server the policy would refuse, so the check cannot pass (and exits 2, see checkCommand).
  const unread = files.some((file) => !file.read);
  const verdict = unread || complete.some((row) => row.result.verdict === 'fail') ? 'fail' : 'pass';
  const notice = offlineNotice(client.origin);
  return {
    verdict,
    policy: options.policy,
    ...(policyFile === undefined ? {} : { policyFile }),
    files,
    rows: complete,
    ...(notice === undefined ? {} : { notice }),
  };
}

/** The whole command: returns the exit code (errors of its own are thrown; see `checkCommand`). */
export async function checkCommand(
  argv: readonly string[],
  source: (settings: { offline: boolean }) => Promise<TrustSource>,
): Promise<number> {
  const options = parseCheckArgs(argv);
  let report: Report;
  const client = await source({ offline: options.offline === true });
  try {
    report = await runCheck(options, client);
  } catch (error) {
    if (error instanceof TrustApiError) {
      const status = error.details.status === undefined ? '' : ` (${error.details.status})`;
      throw new CheckError(`the trust-score API could not check${status}: ${error.message}`);
    }
    throw error;
  } finally {
    client.close();
  }
  const text = formatReport(report, options.format);
  if (options.output) await writeFile(options.output, text);
  else process.stdout.write(text);
  // A file that should have been read and was not leaves servers unchecked: the check was not made, whatever
  // the verdict on the rest (a gate must never pass on what it could not read).
  const unread = report.files.filter((file) => !file.read);
  if (unread.length > 0) {
    const names = unread.map((file) => printable(file.file)).join(', ');
    process.stderr.write(`could not read ${names}: the check is incomplete (exit 2)\n`);
    return 2;
  }
  return report.verdict === 'pass' ? 0 : 1;
}
