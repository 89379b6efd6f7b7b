/**
 * The check's report in the four formats the CLI writes: `text` for people, `json` for programs, `sarif`
 * (SARIF 2.1.0, one stable rule id per kind of reason, each result located at the line of the configuration
 * file where the server is declared) for code scanning, and `github` workflow annotations. Whatever came from
 * a configuration file is escaped in every format (`printable.ts`): no line of a report can be a workflow
 * command or a terminal escape.
 */
import type { CheckItem, CheckResult, Policy, Verdict } from '../model/check.js';
import { describePolicy, REASON_KINDS, reasonKind } from '../model/check.js';
import { TOOL_VERSION } from '../model/version.js';
import type { ConfigEntry } from './config-files.js';
import { purlOf } from '../model/purl.js';
import { printable, printableJson } from '../model/printable.js';
import type { FileOutcome } from './user-configs.js';

export const REPORT_FORMATS = ['text', 'json', 'sarif', 'github'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** One configuration entry and what the check made of it. */
export interface ReportRow {
  entry: ConfigEntry;
  /** What it was looked up by; undefined when it is not checkable. */
  item?: CheckItem;
  result: CheckResult;
}

export interface Report {
  verdict: 'pass' | 'fail';
  /** The policy the check applied, defaults filled in: every format begins by stating it. */
  policy: Policy;
  /** The policy file the policy was read from, when one was. */
  policyFile?: string;
  /** Each configuration file looked at: read (with its number of servers) or not (with the reason). */
  files: FileOutcome[];
  rows: ReportRow[];
  /** Where the scores came from when it is not the live API (`offlineNotice`), said in every format. */
  notice?: string;
}

/** One line per file: what was read, and what could not be (the reason is already one escaped line). */
const fileLines = (files: readonly FileOutcome[]) =>
  files.map((file) =>
    file.read
      ? `Read ${file.file}${file.client === 'project' ? '' : ` (${file.client})`}: ${file.servers} ${file.servers === 1 ? 'server' : 'servers'}`
      : `Could not read ${file.file} (${file.client}): ${file.reason.replace(`${file.file}: `, '')}`,
  );

const policyFileLines = (report: Report) =>
  report.policyFile === undefined ? [] : [`Policy file: ${report.policyFile}`];

/** The policy as programs read it: its members, where it came from, and the sentence every report states. */
const policyOf = (report: Report) => ({
  ...report.policy,
  ...(report.policyFile === undefined ? {} : { file: report.policyFile }),
  text: describePolicy(report.policy),
});

/** The rule of a reason; a not-checkable entry has its own. */
const ruleOf = (reason: string): string => `mcp-trust/${reasonKind(reason) ?? 'not-checkable'}`;

const describeInput = (item: CheckItem | undefined) => {
  if (item === undefined) return '(not checkable)';
  if (typeof item === 'string') return item;
  if ('package' in item) return item.package;
  return 'purl' in item ? item.purl : item.url;
};

/** What an entry was looked up by, for programs: a package also as its package URL (purl). */
function inputOf(item: CheckItem | undefined) {
  if (item === undefined) return null;
  if (typeof item !== 'string' && 'package' in item) return { ...item, purl: purlOf(item.package) ?? null };
  return item;
}

const counts = (rows: readonly ReportRow[]) => {
  const by: Record<Verdict, number> = { pass: 0, warn: 0, fail: 0 };
  for (const row of rows) by[row.result.verdict]++;
  return `${by.pass} pass, ${by.warn} warn, ${by.fail} fail`;
};

function text(report: Report): string {
  const lines: string[] = [
    `Policy: ${describePolicy(report.policy)}`,
    ...policyFileLines(report),
    ...fileLines(report.files),
  ];
  for (const { entry, item, result } of report.rows) {
    const server =
      result.server === null ? 'no scored server' : `${result.server} ${result.trust_score} ${result.trust_label}`;
    lines.push(
      `${result.verdict.toUpperCase()} ${entry.file}:${entry.line} ${entry.name}: ${describeInput(item)} → ${server}`,
    );
    for (const reason of result.reasons) lines.push(`       ${reason}`);
  }
  const noun = report.rows.length === 1 ? 'server' : 'servers';
  lines.push(`Verdict: ${report.verdict.toUpperCase()} (${report.rows.length} ${noun}: ${counts(report.rows)})`);
  if (report.notice !== undefined) lines.push(`Data: ${report.notice}`);
  return `${lines.map((line) => printable(line)).join('\n')}\n`;
}

function json(report: Report): string {
  const results = report.rows.map(({ entry, item, result }) => ({
    file: entry.file,
    line: entry.line,
    name: entry.name,
    ...result,
    input: inputOf(item),
  }));
  const policy = policyOf(report);
  const notice = report.notice === undefined ? {} : { notice: report.notice };
  const answer = { policy, files: report.files, verdict: report.verdict, ...notice, results };
  return `${printableJson(JSON.stringify(answer, null, 2))}\n`;
}

function sarif(report: Report): string {
  const rules = [
    ...REASON_KINDS.filter((kind) => !['allowed-server', 'excepted-server', 'shared-package'].includes(kind.id)),
    { id: 'not-checkable', summary: 'A server entry the check cannot identify' },
  ].map((kind) => ({
    id: `mcp-trust/${kind.id}`,
    name: kind.id.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()),
    shortDescription: { text: kind.summary },
  }));
  const results = report.rows.flatMap(({ entry, result }) => {
    if (result.verdict === 'pass') return [];
    const level = result.verdict === 'fail' ? 'error' : 'warning';
    const shown = result.server ?? entry.name;
    // One result per failing rule (a shared-package note explains, it does not fail).
    const reasons = result.reasons.filter((reason) => reasonKind(reason) !== 'shared-package');
    return reasons.map((reason) => ({
      ruleId: ruleOf(reason),
      level,
      message: { text: `${entry.name} (${shown}): ${reason}` },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: entry.file.replaceAll('\\', '/') },
            region: { startLine: entry.line },
          },
        },
      ],
    }));
  });
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        // SARIF's property bag: the policy the results were judged by, the files read and, offline, where the
        // scores came from (one bag: a second `properties` member would replace the first).
        properties: {
          policy: policyOf(report),
          files: report.files,
          ...(report.notice === undefined ? {} : { notice: report.notice }),
        },
        tool: {
          driver: {
            name: 'mcp-trust-score',
            version: TOOL_VERSION,
            informationUri: 'https://github.com/modelcontextprotocol/registry',
            rules,
          },
        },
        results,
      },
    ],
  };
  return `${printableJson(JSON.stringify(log, null, 2))}\n`;
}

/**
 * GitHub's workflow command escaping (`@actions/core`), after every control character is made visible: data
 * and properties.
 */
const escapeData = (value: string) => printable(value).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (value: string) => escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');

function github(report: Report): string {
  const lines: string[] = [`MCP trust policy: ${escapeData(describePolicy(report.policy))}`];
  if (report.policyFile !== undefined) lines.push(`MCP trust policy file: ${escapeData(report.policyFile)}`);
  for (const file of report.files) {
    if (file.read) lines.push(escapeData(fileLines([file])[0]!));
    else
      lines.push(`::warning title=${escapeProperty(`MCP trust: ${file.file}`)}::${escapeData(fileLines([file])[0]!)}`);
  }
  for (const { entry, result } of report.rows) {
    if (result.verdict === 'pass') continue;
    const command = result.verdict === 'fail' ? 'error' : 'warning';
    const title = `MCP trust: ${entry.name}`;
    const message = result.reasons.join('; ') || `${result.verdict}`;
    lines.push(
      `::${command} file=${escapeProperty(entry.file)},line=${entry.line},title=${escapeProperty(title)}::${escapeData(message)}`,
    );
  }
  if (report.notice !== undefined) lines.push(`::notice title=MCP trust data::${escapeData(report.notice)}`);
  lines.push(`MCP trust check: ${report.verdict.toUpperCase()} (${counts(report.rows)})`);
  return `${lines.join('\n')}\n`;
}

export function formatReport(report: Report, format: ReportFormat): string {
  switch (format) {
    case 'text':
      return text(report);
    case 'json':
      return json(report);
    case 'sarif':
      return sarif(report);
    case 'github':
      return github(report);
  }
}
