/**
 * A configuration entry → what `POST /v1/check` can look up: the package a launcher runs (`npx`, `bunx`,
 * `npm exec`, `pnpm dlx`, `yarn dlx` → npm; `uvx`, `pipx run`, `uv tool run` → PyPI; `docker run`, `podman run`
 * → OCI), by bare name or full path, also behind Windows' `cmd /c`; or the remote URL (`url`, `serverUrl`),
 * also when a stdio-to-remote proxy (`mcp-remote`, `supergateway`, `mcp-proxy`) is what runs: the server
 * judged is the one it connects to, not the proxy. Anything else (a local script, an unknown launcher) is
 * reported as not checkable with the command and the reason, never skipped in silence.
 */
import type { CheckItem } from '../model/check.js';
import type { ConfigEntry } from './config-files.js';

export type EntryItem = { ok: true; item: CheckItem } | { ok: false; reason: string };

/** `/usr/local/bin/npx.cmd` → `npx`. */
function commandName(command: string): string {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.replace(/\.(cmd|exe|bat|ps1)$/i, '').toLowerCase();
}

/** Options of the launchers that take a value, so the value is not mistaken for the package. */
const VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  npm: new Set(['--registry', '--cache', '--userconfig', '-c', '--call', '--node-options']),
  pypi: new Set(['--python', '-p', '--index-url', '-i', '--extra-index-url', '--with', '-w', '--spec', '--pip-args']),
  oci: new Set([
    ...['-e', '--env', '--env-file', '-v', '--volume', '--mount', '--name', '-p', '--publish', '--network'],
    ...['-w', '--workdir', '-u', '--user', '--entrypoint', '--platform', '--pull', '-l', '--label', '-h'],
    ...['--hostname', '--add-host', '--cpus', '-m', '--memory', '--restart', '--log-driver', '--cap-add'],
    ...['--cap-drop', '--security-opt', '--device', '--dns', '--tmpfs', '--ulimit', '--runtime', '--gpus'],
  ]),
};

/**
 * The first argument that is not an option (nor an option's value): what the launcher runs, and the arguments
 * after it (the program's own). An option `--from`/`--package`/`-p` (npx, uvx) names the package directly.
 */
function firstPositional(
  args: readonly string[],
  ecosystem: 'npm' | 'pypi' | 'oci',
): { target: string | undefined; after: readonly string[] } {
  const takesValue = VALUE_OPTIONS[ecosystem]!;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return { target: args[i + 1], after: args.slice(i + 2) };
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    if (ecosystem !== 'oci' && (name === '--package' || name === '--from' || (ecosystem === 'npm' && name === '-p'))) {
      return { target: inline ?? args[i + 1], after: args.slice(inline === undefined ? i + 2 : i + 1) };
    }
    if (!arg.startsWith('-')) return { target: arg, after: args.slice(i + 1) };
    if (inline === undefined && takesValue.has(name)) i++;
  }
  return { target: undefined, after: [] };
}

/**
 * Packages that run a local stdio server which forwards to a remote one: the URL among their arguments is
 * the server to judge.
 */
const REMOTE_PROXIES: ReadonlySet<string> = new Set(['npm:mcp-remote', 'npm:supergateway', 'pypi:mcp-proxy']);

/** `npm:@scope/pkg@1.2` → `npm:@scope/pkg`; `pypi:pkg==1.0` → `pypi:pkg` (enough to recognise a proxy). */
function packageName(ecosystem: string, target: string): string {
  const at = target.indexOf('@', target.startsWith('@') ? 1 : 0);
  const name = ecosystem === 'npm' && at > 0 ? target.slice(0, at) : target.split(/[[=<>!~]/, 1)[0]!;
  return `${ecosystem}:${name.toLowerCase()}`;
}

function launched(ecosystem: 'npm' | 'pypi' | 'oci', args: readonly string[], entry: ConfigEntry): EntryItem {
  const { target, after } = firstPositional(args, ecosystem);
  if (target === undefined || target === '') {
    return { ok: false, reason: `"${shown(entry)}" names no ${ecosystem === 'oci' ? 'image' : 'package'} to run` };
  }
  const proxy = packageName(ecosystem, target);
  if (REMOTE_PROXIES.has(proxy)) {
    const url = after.find((arg) => /^https?:\/\//i.test(arg));
    if (url !== undefined) return { ok: true, item: { url } };
    return { ok: false, reason: `"${shown(entry)}" runs the proxy ${proxy} with no http(s) URL to judge` };
  }
  return { ok: true, item: { package: `${ecosystem}:${target}` } };
}

/** The command as written, cut to a length a report line can carry (the report escapes it). */
function shown(entry: ConfigEntry): string {
  const text = [entry.command ?? '', ...entry.args].join(' ');
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * `cmd /c npx -y pkg` (the usual Windows form; also `cmd.exe`, `/C`, `/k`, and the program and its arguments
 * given as one string) → the entry of what it runs; undefined when it runs nothing.
 */
function unwrapCmd(entry: ConfigEntry): ConfigEntry | undefined {
  const [flag, ...rest] = entry.args;
  if (flag === undefined || !/^\/[ck]$/i.test(flag)) return undefined;
  const words = rest.length === 1 ? rest[0]!.trim().split(/\s+/) : rest;
  const [command, ...args] = words;
  if (command === undefined || command === '') return undefined;
  return { ...entry, command, args };
}

/** What `entry` can be checked by, or why it cannot be. */
export function itemForEntry(entry: ConfigEntry, depth = 0): EntryItem {
  if (entry.url !== undefined) return { ok: true, item: { url: entry.url } };
  if (entry.command === undefined) return { ok: false, reason: 'it has neither a command nor a url' };
  const command = commandName(entry.command);
  const [first, ...rest] = entry.args;
  switch (command) {
    case 'cmd': {
      const inner = depth < 3 ? unwrapCmd(entry) : undefined;
      if (inner !== undefined) return itemForEntry(inner, depth + 1);
      break;
    }
    case 'npm':
      if (first === 'exec' || first === 'x') return launched('npm', rest, entry);
      break;
    case 'npx':
    case 'bunx':
      return launched('npm', entry.args, entry);
    case 'pnpm':
    case 'yarn':
    case 'bun':
      if (first === 'dlx' || (command === 'bun' && first === 'x')) return launched('npm', rest, entry);
      break;
    case 'uvx':
      return launched('pypi', entry.args, entry);
    case 'pipx':
      if (first === 'run') return launched('pypi', rest, entry);
      break;
    case 'uv':
      if (first === 'tool' && rest[0] === 'run') return launched('pypi', rest.slice(1), entry);
      break;
    case 'docker':
    case 'podman':
      if (first === 'run') return launched('oci', rest, entry);
      if (first === 'container' && rest[0] === 'run') return launched('oci', rest.slice(1), entry);
      break;
  }
  return {
    ok: false,
    reason: `"${shown(entry)}" runs a program this check cannot identify (known: npx, bunx, npm exec, pnpm dlx, yarn dlx, uvx, pipx run, docker run, cmd /c, or a url)`,
  };
}
