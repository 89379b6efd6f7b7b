/**
 * A configuration entry → what `POST /v1/check` can look up: the package a launcher runs (`npx`, `bunx`,
 * `pnpm dlx`, `yarn dlx` → npm; `uvx`, `pipx run`, `uv tool run` → PyPI; `docker run`, `podman run` → OCI) or
 * the remote URL (`url`, `serverUrl`). Anything else (a local script, an unknown launcher) is reported as not
 * checkable with the reason, never skipped in silence.
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
 * The first argument that is not an option (nor an option's value): what the launcher runs. An option
 * `--from`/`--package`/`-p` (npx, uvx) names the package directly and wins.
 */
function firstPositional(args: readonly string[], ecosystem: 'npm' | 'pypi' | 'oci'): string | undefined {
  const takesValue = VALUE_OPTIONS[ecosystem]!;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return args[i + 1];
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    if (ecosystem !== 'oci' && (name === '--package' || name === '--from' || (ecosystem === 'npm' && name === '-p'))) {
      return inline ?? args[i + 1];
    }
    if (!arg.startsWith('-')) return arg;
    if (inline === undefined && takesValue.has(name)) i++;
  }
  return undefined;
}

function launched(ecosystem: 'npm' | 'pypi' | 'oci', args: readonly string[], entry: ConfigEntry): EntryItem {
  const target = firstPositional(args, ecosystem);
  if (target === undefined || target === '') {
    return { ok: false, reason: `"${entry.command}" names no ${ecosystem === 'oci' ? 'image' : 'package'} to run` };
  }
  return { ok: true, item: { package: `${ecosystem}:${target}` } };
}

/** What `entry` can be checked by, or why it cannot be. */
export function itemForEntry(entry: ConfigEntry): EntryItem {
  if (entry.url !== undefined) return { ok: true, item: { url: entry.url } };
  if (entry.command === undefined) return { ok: false, reason: 'it has neither a command nor a url' };
  const command = commandName(entry.command);
  const [first, ...rest] = entry.args;
  switch (command) {
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
  const shown = [entry.command, ...entry.args.slice(0, 2)].join(' ');
  return {
    ok: false,
    reason: `"${shown}" runs a program this check cannot identify (known: npx, bunx, pnpm dlx, yarn dlx, uvx, pipx run, docker run, or a url)`,
  };
}
