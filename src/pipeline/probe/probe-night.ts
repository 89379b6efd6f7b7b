/**
 * The night's probes: every server with a remote probed once (`probe-remote.ts`), at most `concurrency` at a
 * time, each within its own bounds, so the step lasts at most about ⌈servers ÷ concurrency⌉ × the per-server
 * deadline, whatever the remotes do. What was seen becomes this project's own `probes.json` and `tools.json`
 * (`src/model/probes.ts`, `src/model/tools.ts`), read against the previous night's files:
 * - `consecutive_failures` counts the nights in a row this project's probe found the remote unreachable (a third
 *   party's observations never count: their file is replaced, not continued; a URL the prober may not ask is
 *   not a failure of the remote);
 * - the tools a server listed are pinned with their hash; a night that lists none keeps the last pinned tools
 *   while the version is the same, so a change is always measured against the last tools seen;
 * - `tools_changed_at` is set the night the hash changes while the record's version does not, and kept until
 *   the version changes.
 */
import {
  type AUTH_STATES,
  type ProbeFile,
  ProbeFileSchema,
  type ProbeObservation,
  ProbeObservationSchema,
} from '../../model/probes.js';
import { type ServerTools, ServerToolsSchema, type ToolsFile, ToolsFileSchema, toolsHash } from '../../model/tools.js';
import { receiverAgents } from '../../notify/address-filter.js';
import { mapBounded } from '../bounded.js';
import { DEFAULT_PROBE_LIMITS, type ProbeLimits, probeRemote, type RemoteProbe } from './probe-remote.js';

/** Who probed, as every record's evidence names this project's own probes. */
export const PROBES_BY = 'mcp-trust-score nightly probe';

/** A server to probe: its name, its version as the record holds it, its remotes as the registry lists them. */
export interface ProbeTarget {
  name: string;
  version: string | null;
  remotes: ReadonlyArray<{ type: string; url: string }>;
}

export interface ProbeNightOptions extends Partial<ProbeLimits> {
  /** Probes at once. */
  concurrency: number;
  /** Lifts the private-address rules (never the cloud metadata addresses): for tests on 127.0.0.1 only. */
  allowPrivate: boolean;
  /** Allows `http` remotes: for tests only. */
  allowHttp: boolean;
  /** The previous night's files, as read from `<out>/evidence/` (absent on the first night). */
  previous?: { probes?: ProbeFile | undefined; tools?: ToolsFile | undefined };
  /** The time every observation of this night is stamped with. */
  probedAt: string;
}

export interface ProbeNightCounts {
  probed: number;
  reachable: number;
  open: number;
  oauth: number;
  bare401: number;
  toolsChanged: number;
  /** Failures by kind, for the summary line. */
  failures: Record<string, number>;
}

export interface ProbeNight {
  probes: ProbeFile;
  tools: ToolsFile;
  counts: ProbeNightCounts;
}

const REMOTE_KINDS = new Set(['streamable-http', 'sse']);

/**
 * The remote to probe: the first Streamable HTTP one the registry lists, else the first SSE one. A URL with
 * template variables (`https://{tenant}.example.com/mcp`) names no one server and is never probed.
 */
export function remoteToProbe(
  remotes: ProbeTarget['remotes'],
): { type: 'streamable-http' | 'sse'; url: string } | undefined {
  const known = remotes.filter((remote) => REMOTE_KINDS.has(remote.type) && !/[{}]/.test(remote.url));
  const chosen = known.find((remote) => remote.type === 'streamable-http') ?? known[0];
  return chosen === undefined ? undefined : { type: chosen.type as 'streamable-http' | 'sse', url: chosen.url };
}

/** One night's observation of one server, continued from the previous night's own observation. */
function observe(
  target: ProbeTarget,
  declared: 'streamable-http' | 'sse',
  seen: RemoteProbe,
  previousOwn: ProbeObservation | undefined,
  previousTools: ServerTools | undefined,
  probedAt: string,
): { observation: ProbeObservation; pinned: ServerTools | undefined; changed: boolean } {
  const version = target.version ?? 'unknown';
  const hash = seen.tools === null ? null : toolsHash(seen.tools.tools);
  const sameVersion = previousTools !== undefined && previousTools.version === version;
  const changed = hash !== null && sameVersion && previousTools.hash !== hash;
  const keptChange =
    previousOwn?.version === version && typeof previousOwn.tools_changed_at === 'string'
      ? previousOwn.tools_changed_at
      : null;
  const pinned: ServerTools | undefined =
    seen.tools !== null && hash !== null
      ? {
          name: target.name,
          version,
          probed_at: probedAt,
          hash,
          truncated: seen.tools.truncated,
          tools: seen.tools.tools,
        }
      : sameVersion
        ? previousTools
        : undefined;
  const observation: ProbeObservation = {
    name: target.name,
    reachable: seen.reachable,
    auth: seen.auth,
    tool_count: seen.tools === null ? null : Math.min(seen.tools.count, 100_000),
    // Unreachable, it is named by the transport the registry declares.
    transport: seen.reachable ? seen.transport : declared,
    probed_at: probedAt,
    failure: seen.failure,
    ...(seen.http_status === undefined ? {} : { http_status: seen.http_status }),
    protocol_version: seen.protocol_version,
    server_info: seen.server_info,
    version,
    tools_hash: hash,
    tools_changed_at: changed ? probedAt : keptChange,
    // A URL the prober may not ask (`url`: not https) was never asked: not a night the remote failed.
    consecutive_failures:
      seen.reachable || seen.failure === 'url' ? 0 : Math.min((previousOwn?.consecutive_failures ?? 0) + 1, 100_000),
  };
  return { observation, pinned, changed };
}

/** Probes every target with a remote; never throws for a remote's sake. */
export async function probeNight(targets: readonly ProbeTarget[], options: ProbeNightOptions): Promise<ProbeNight> {
  const limits: ProbeLimits = {
    timeoutMs: options.timeoutMs ?? DEFAULT_PROBE_LIMITS.timeoutMs,
    maxBytes: options.maxBytes ?? DEFAULT_PROBE_LIMITS.maxBytes,
    maxToolPages: options.maxToolPages ?? DEFAULT_PROBE_LIMITS.maxToolPages,
  };
  const previousProbes = options.previous?.probes;
  // A third party's observations are shown until replaced, never continued as this project's.
  const ownPrevious = new Map(
    previousProbes !== undefined && !previousProbes.third_party
      ? previousProbes.observations.map((observation) => [observation.name, observation])
      : [],
  );
  const previousTools = options.previous?.tools;
  const pinnedBefore = new Map(
    previousTools !== undefined && !previousTools.third_party
      ? previousTools.servers.map((server) => [server.name, server])
      : [],
  );
  const work = targets.flatMap((target) => {
    const remote = remoteToProbe(target.remotes);
    return remote === undefined ? [] : [{ target, remote }];
  });
  const agents = receiverAgents(options.allowPrivate, { keepAlive: false, refuseMetadata: true });
  let outcomes;
  try {
    outcomes = await mapBounded(work, options.concurrency, async ({ target, remote }) => {
      const seen = await probeRemote(remote.url, { ...limits, agents, allowHttp: options.allowHttp });
      return observe(
        target,
        remote.type,
        seen,
        ownPrevious.get(target.name),
        pinnedBefore.get(target.name),
        options.probedAt,
      );
    });
  } finally {
    agents.destroy();
  }
  // One server's odd answer never costs the night's file: what does not make a valid entry is left out.
  const valid = outcomes.filter(
    ({ observation, pinned }) =>
      ProbeObservationSchema.safeParse(observation).success &&
      (pinned === undefined || ServerToolsSchema.safeParse(pinned).success),
  );
  const observations = valid.map(({ observation }) => observation);
  const failures: Record<string, number> = {};
  for (const { observation } of valid) {
    if (typeof observation.failure === 'string')
      failures[observation.failure] = (failures[observation.failure] ?? 0) + 1;
  }

  const authCount = (state: (typeof AUTH_STATES)[number]) => observations.filter((o) => o.auth === state).length;
  return {
    probes: ProbeFileSchema.parse({ by: PROBES_BY, third_party: false, observations }),
    tools: ToolsFileSchema.parse({
      by: PROBES_BY,
      third_party: false,
      servers: valid.flatMap(({ pinned }) => (pinned === undefined ? [] : [pinned])),
    }),
    counts: {
      probed: observations.length,
      reachable: observations.filter((o) => o.reachable).length,
      open: authCount('open'),
      oauth: authCount('oauth'),
      bare401: authCount('bare-401'),
      toolsChanged: valid.filter(({ changed }) => changed).length,
      failures,
    },
  };
}
