/**
 * A live probe of a server's remote as a source of evidence: the committed `data/evidence/probes.json`
 * (`src/model/probes.ts`), whoever probed it named in every record's evidence. The committed file is a
 * third party's single probe of July 2026, so it is shown, not scored: one observation of a remote that did
 * not answer is not a remote that is gone (REMOTE_UNREACHABLE is for failures on consecutive nights of this
 * project's own prober), and a verdict says what was seen and when. This source has no rules.
 */
import { type ProbeFile, ProbeFileSchema, type ProbeObservation } from '../../model/probes.js';
import type { EvidenceSource, SignalRule, SourceReading } from '../evidence-source.js';
import { readEvidenceFile } from './reading.js';

export const PROBES_FILE = 'probes.json';
export const PROBE_RULES: readonly SignalRule[] = [];

const unread = (missing: string): SourceReading => ({
  source: 'probe',
  state: { measured: false, at: null, by: null, third_party: false, missing },
  signals: {},
  findings: [],
});

/** The probe source over `file`'s observations. */
export function probeSourceOf(file: ProbeFile): EvidenceSource {
  const byName = new Map<string, ProbeObservation>(file.observations.map((o) => [o.name.toLowerCase(), o]));
  return {
    name: 'probe',
    read: ({ record }) => {
      if ((record.remotes ?? []).length === 0) return unread('no remote to probe (the server runs locally)');
      const observation = byName.get(record.name.toLowerCase());
      if (observation === undefined) return unread('the remote was not probed for this snapshot');
      const { name: _name, ...detail } = observation;
      return {
        source: 'probe',
        state: { measured: true, at: observation.probed_at, by: file.by, third_party: file.third_party, missing: null },
        signals: {},
        findings: [],
        detail,
      };
    },
  };
}

/** The source over the committed file in `evidenceDir`; with no file, every remote is unprobed. */
export async function probeSource(evidenceDir: string): Promise<EvidenceSource> {
  const file = await readEvidenceFile(evidenceDir, PROBES_FILE, ProbeFileSchema);
  if (file !== undefined) return probeSourceOf(file);
  return {
    name: 'probe',
    read: () => unread('the remote was not probed for this snapshot (no probe evidence in the dataset)'),
  };
}
