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
import { CHECK_LIMITS, type CheckResult, DEFAULT_POLICY, type Policy, UNKNOWN_VERDICTS } from '../model/check.js';
import { unknownFlagsProblem, VOCABULARY_FLAGS } from '../model/flag-names.js';
import { type ConfigEntry, DEFAULT_CONFIG_FILES } from './config-files.js';
import { printable } from './printable.js';
import { readConfigFile } from './read-config.js';
import { itemForEntry } from './entries.js';
import type { FileOutcome } from './user-configs.js';
import { formatReport, REPORT_FORMATS, type Report, type ReportFormat, type ReportRow } from './report.js';

export const CHECK_USAGE = `usage: mcp-trust-score check [files...] [options]

Checks the MCP servers of configuration files (default: whichever of ${DEFAULT_CONFIG_FILES.join(', ')}
exist here) against a policy. Offline, from the scores shipped in this package, unless TRUST_API_URL is
set: then with the trust-score API there (with or without /v1), using the key in TRUST_API_KEY.

  --user                also check the user-level configurations of the MCP clients on this machine (Claude
                        Desktop, Claude Code, Cursor, VS Code, Windsurf, Gemini CLI, Zed, Continue, Codex, opencode)
  --min-score N         fail a server whose trust score is below N (0-100; default 40)
  --deny-flags A,B      fail a server carrying any of these flags (a flag no scored server has is an error)
  --require-verified    fail a server whose publisher is not verified
  --unknown V           what a server that matches no scored server gets: fail (default), warn or pass
  --format F            text (default), json, sarif or github
  --output FILE         write the report to FILE instead of stdout
  --help, --version     this help, the version

With no options the policy fails servers below 40 (Very Low Trust and below) and servers that match no scored
server; every report begins with the policy it applied.

Exit codes: 0 pass, 1 fail, 2 the check could not be made.`;

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
  policy: Policy;
  format: ReportFormat;
  output?: string;
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
      format: { type: 'string' },
      output: { type: 'string' },
    },
  });
  const policy: Policy = { ...DEFAULT_POLICY };
  if (values['min-score'] !== undefined) {
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
  }
  if (values['require-verified']) policy.require_verified_publisher = true;
  if (values.unknown !== undefined) {
    if (!(UNKNOWN_VERDICTS as readonly string[]).includes(values.unknown)) {
      throw new CheckError(`--unknown must be one of ${UNKNOWN_VERDICTS.join(', ')}, not "${values.unknown}"`);
    }
    policy.unknown = values.unknown as Policy['unknown'];
  }
  const format = values.format ?? 'text';
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
    throw new CheckError(`--format must be one of ${REPORT_FORMATS.join(', ')}, not "${format}"`);
  }
  return {
    files: positionals,
    ...(values.user ? { user: true } : {}),
    policy,
    format: format as ReportFormat,
    ...(values.output ? { output: values.output } : {}),
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
    verdict: policy.unknown,
    reasons: [`not checkable: ${reason}; the policy treats servers it cannot identify as "${policy.unknown}"`],
  };
}

/**
 * Refuse a `--deny-flags` name no scored server has ever carried: the vocabulary's flags are known here; a
 * name outside it is held against the flags the source's snapshot counts (one statistics request).
 */
async function checkDenyFlags(policy: Policy, client: TrustSource): Promise<void> {
  const flags = policy.deny_flags ?? [];
  if (unknownFlagsProblem('--deny-flags', flags, VOCABULARY_FLAGS) === undefined) return;
  const stats = await client.stats();
  const known = new Set([...VOCABULARY_FLAGS, ...Object.keys(stats.flag_summary).map((flag) => flag.toUpperCase())]);
  const problem = unknownFlagsProblem('--deny-flags', flags, known);
  if (problem !== undefined) throw new CheckError(problem);
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
  await checkDenyFlags(options.policy, client);
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
    const { readUserConfigs, userConfigHome } = await import('./user-configs.js');
    const user = await readUserConfigs(env);
    if (files.length === 0 && user.files.length === 0) {
      throw new CheckError(
        `no MCP configuration file here (looked for ${DEFAULT_CONFIG_FILES.join(', ')}) nor any MCP client's user-level configuration under ${userConfigHome(env)}; name one`,
      );
    }
    // One by one, not spread: a file of 130,000 entries would overflow the call stack as arguments.
    for (const entry of user.entries) entries.push(entry);
    for (const outcome of user.files) files.push(outcome);
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
  return { verdict, policy: options.policy, files, rows: complete, ...(notice === undefined ? {} : { notice }) };
}

/** The whole command: returns the exit code (errors of its own are thrown; see `checkCommand`). */
export async function checkCommand(argv: readonly string[], source: () => Promise<TrustSource>): Promise<number> {
  const options = parseCheckArgs(argv);
  let report: Report;
  const client = await source();
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
  if (report.files.some((file) => !file.read)) {
    const unread = report.files.flatMap((file) => (file.read ? [] : [file.reason]));
    process.stderr.write(`${printable(`not checked: ${unread.join('; ')}`)}\n`);
    return 2;
  }
  return report.verdict === 'pass' ? 0 : 1;
}
