/**
 * A live probe of a server's remote as a source of evidence: `data/evidence/probes.json` and the pinned tools
 * of `data/evidence/tools.json` (`src/model/probes.ts`, `src/model/tools.ts`), whoever probed named in every
 * record's evidence. It is shown, not scored (this source has no signal rules), and raises findings only from
 * this project's own probes (docs/method.md, "Findings of the probe"):
 * - REMOTE_UNREACHABLE when the remote failed on at least `UNREACHABLE_NIGHTS` consecutive nights: one
 *   observation of a remote that did not answer is not a remote that is gone, and a third party's single
 *   probe (the committed July 2026 file) never raises it;
 * - SSE_ONLY when the probe could speak to it only over SSE (the registry source raises the same flag from the
 *   entry's declaration; a record carries it once);
 * - TOOLS_CHANGED while the tools' hash has changed since the last probe at the same version;
 * - TOOL_INSTRUCTIONS when a pinned tool's words match a rule of `src/scoring/tool-instructions.ts`.
 */
import { type ProbeFile, ProbeFileSchema, type ProbeObservation } from '../../model/probes.js';
import { type ServerTools, type ToolsFile, ToolsFileSchema } from '../../model/tools.js';
import type { EvidenceSource, Finding, SignalRule, SourceReading } from '../evidence-source.js';
import { toolsWithInstructions } from '../tool-instructions.js';
import { readEvidenceFile } from './reading.js';

export const PROBES_FILE = 'probes.json';
export const TOOLS_FILE = 'tools.json';
export const PROBE_RULES: readonly SignalRule[] = [];
/** Consecutive nights of failure before a remote is called unreachable. */
export const UNREACHABLE_NIGHTS = 2;

/** A publisher's tool name inside a sentence: quoted, bounded, nothing but printable text. */
const quoted = (name: string) => JSON.stringify(name.slice(0, 64).replace(/[^\x20-\x7e]/g, '?'));

/** The findings of this project's own observation of one server, and of the tools it pinned. */
export function probeFindings(
  observation: ProbeObservation,
  thirdParty: boolean,
  pinned: ServerTools | undefined,
): Finding[] {
  if (thirdParty) return [];
  const findings: Finding[] = [];
  const failures = observation.consecutive_failures ?? 0;
  if (!observation.reachable && failures >= UNREACHABLE_NIGHTS) {
    findings.push({
      flag: 'REMOTE_UNREACHABLE',
      detail: `the remote did not answer this project's probe on ${failures} nights in a row (last: ${observation.failure ?? 'no answer'})`,
    });
  }
  if (observation.reachable && observation.transport === 'sse') {
    findings.push({ flag: 'SSE_ONLY', detail: 'the probe could reach the remote only over SSE' });
  }
  if (typeof observation.tools_changed_at === 'string') {
    findings.push({
      flag: 'TOOLS_CHANGED',
      detail: `its tools changed on ${observation.tools_changed_at.slice(0, 10)} while its version stayed ${observation.version ?? 'the same'}`,
    });
  }
  const instructed = pinned === undefined ? [] : toolsWithInstructions(pinned.tools);
  if (instructed.length > 0) {
    const shown = instructed.slice(0, 3).map(({ tool, rules }) => `${quoted(tool)} (${rules.join(', ')})`);
    const more = instructed.length - shown.length;
    findings.push({
      flag: 'TOOL_INSTRUCTIONS',
      detail: `tool descriptions address the model: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`,
    });
  }
  return findings;
}

const unread = (missing: string): SourceReading => ({
  source: 'probe',
  state: { measured: false, at: null, by: null, third_party: false, missing },
  signals: {},
  findings: [],
});

/** The probe source over `file`'s observations and `tools`' pinned tools. */
export function probeSourceOf(file: ProbeFile, tools?: ToolsFile): EvidenceSource {
  const byName = new Map<string, ProbeObservation>(file.observations.map((o) => [o.name.toLowerCase(), o]));
  const toolsByName = new Map<string, ServerTools>(
    (tools?.servers ?? []).map((server) => [server.name.toLowerCase(), server]),
  );
  return {
    name: 'probe',
    read: ({ record }) => {
      if ((record.remotes ?? []).length === 0) return unread('no remote to probe (the server runs locally)');
      const observation = byName.get(record.name.toLowerCase());
      if (observation === undefined) return unread('the remote was not probed for this snapshot');
      const { name: _name, ...seen } = observation;
      const pinned = toolsByName.get(record.name.toLowerCase());
      const detail = { ...seen, tools_hash: observation.tools_hash ?? null, tool_count: observation.tool_count };
      return {
        source: 'probe',
        state: { measured: true, at: observation.probed_at, by: file.by, third_party: file.third_party, missing: null },
        signals: {},
        findings: probeFindings(observation, file.third_party, pinned),
        detail,
      };
    },
  };
}

/** The source over the files in `evidenceDir`; with no probe file, every remote is unprobed. */
export async function probeSource(evidenceDir: string): Promise<EvidenceSource> {
  const file = await readEvidenceFile(evidenceDir, PROBES_FILE, ProbeFileSchema);
  const tools = await readEvidenceFile(evidenceDir, TOOLS_FILE, ToolsFileSchema);
  if (file !== undefined) return probeSourceOf(file, tools);
  return {
    name: 'probe',
    read: () => unread('the remote was not probed for this snapshot (no probe evidence in the dataset)'),
  };
}
