/**
 * What an `npm audit --omit=dev --json` run says, read strictly (zod): a report with no high or critical
 * vulnerability, a report with some (the CI fails), or no report because the advisory service could not be
 * reached (the CI says so loudly and goes on: that is the environment, not the code). Anything else is
 * "unreadable" and fails, so a change in npm's output can never pass for a clean audit.
 */
import * as z from 'zod';

const SEVERITIES = ['info', 'low', 'moderate', 'high', 'critical'] as const;
type Severity = (typeof SEVERITIES)[number];

/** npm's audit report, version 2 (npm 7 and later): only the members read here, others allowed. */
const AuditReportSchema = z.looseObject({
  auditReportVersion: z.literal(2),
  vulnerabilities: z.record(
    z.string(),
    z.looseObject({
      name: z.string(),
      severity: z.enum(SEVERITIES),
      via: z.array(z.union([z.string(), z.looseObject({ title: z.string().optional(), url: z.string().optional() })])),
    }),
  ),
  metadata: z.looseObject({
    vulnerabilities: z.looseObject({
      info: z.number(),
      low: z.number(),
      moderate: z.number(),
      high: z.number(),
      critical: z.number(),
      total: z.number(),
    }),
  }),
});

/** What npm prints instead of a report when the request for one failed. */
const AuditFailureSchema = z.looseObject({
  message: z.string().optional(),
  statusCode: z.number().optional(),
  uri: z.string().optional(),
  error: z
    .looseObject({ code: z.string().optional(), summary: z.string().optional(), detail: z.string().optional() })
    .optional(),
});

/** Network failures: the service was never reached. */
const NETWORK_ERROR =
  /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|ENETUNREACH|socket hang up)\b/;
/** The advisory endpoints: an HTTP error from one of them means the service answered without a report. */
const AUDIT_ENDPOINT = /\/-\/npm\/v1\/security\/(advisories\/bulk|audits(\/quick)?)\b/;

export interface Finding {
  name: string;
  severity: Severity;
  /** What the advisories say (titles, or the dependency the problem comes through). */
  via: string[];
}

export type AuditOutcome =
  | { kind: 'clean'; counts: Record<Severity, number> }
  | { kind: 'vulnerable'; counts: Record<Severity, number>; findings: Finding[] }
  | { kind: 'unreachable'; reason: string }
  | { kind: 'unreadable'; reason: string };

/** Read the JSON text `npm audit --json` printed. */
export function readAuditOutput(text: string): AuditOutcome {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'unreadable', reason: `npm audit printed no JSON: ${JSON.stringify(text.slice(0, 200))}` };
  }
  const report = AuditReportSchema.safeParse(json);
  if (report.success) {
    const { info, low, moderate, high, critical } = report.data.metadata.vulnerabilities;
    const counts = { info, low, moderate, high, critical };
    if (high + critical === 0) return { kind: 'clean', counts };
    const findings = Object.values(report.data.vulnerabilities)
      .filter((entry) => entry.severity === 'high' || entry.severity === 'critical')
      .map((entry) => ({
        name: entry.name,
        severity: entry.severity,
        via: entry.via.map((via) =>
          typeof via === 'string' ? `through ${via}` : (via.title ?? via.url ?? 'advisory'),
        ),
      }));
    return { kind: 'vulnerable', counts, findings };
  }
  const failure = AuditFailureSchema.safeParse(json);
  if (failure.success) {
    const { message = '', statusCode, uri = '', error } = failure.data;
    const reason = message || error?.summary || error?.code || 'no reason given';
    if (NETWORK_ERROR.test(message) || NETWORK_ERROR.test(error?.code ?? '')) return { kind: 'unreachable', reason };
    if (statusCode !== undefined && (AUDIT_ENDPOINT.test(uri) || AUDIT_ENDPOINT.test(message))) {
      return { kind: 'unreachable', reason };
    }
    return { kind: 'unreadable', reason: `npm audit failed: ${reason}` };
  }
  return {
    kind: 'unreadable',
    reason: `npm audit printed JSON that is neither a report nor an error:\n${z.prettifyError(report.error)}`,
  };
}
