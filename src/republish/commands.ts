/**
 * The republish's child processes: each step is a command (`npm run rescore`, `npm run build`, `npm test`,
 * `vercel ...`, `git ...`) run with its output passed through to the log, escaped, and a failure turned
 * into one line that names the step. A step that fails stops the night: `StepFailed` carries that line.
 */
import { spawn } from 'node:child_process';
import { OperatorError } from '../errors/operator-error.js';
import { printableLines } from '../model/printable.js';

/** A step of the night failed: its message is the one line the republish prints before exiting non-zero. */
export class StepFailed extends OperatorError {
  override name = 'StepFailed';
  constructor(
    readonly step: string,
    readonly reason: string,
    /** What was already done when it failed, when that was more than nothing. */
    consequence = 'nothing was published',
  ) {
    super(`republish: ${step} failed, ${consequence}: ${reason}`);
  }
}

/**
 * What a failure line quotes of a child's output: from the last line in the form of a script's own message
 * (`build: refused ...`, `rescore: ...`) to the end, folded into one line, or else the last line; shortened.
 */
export function lastLine(text: string, max = 300): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const own = lines.findLastIndex((l) => /^[a-z][a-z-]*: /.test(l));
  const line = (own >= 0 ? lines.slice(own) : lines.slice(-1)).join(' ');
  return printableLines(line.length > max ? `${line.slice(0, max)}...` : line);
}

/** The command as a failure line names it: `npm run build`, `vercel deploy` (subcommands, no options or values). */
function commandName(command: string, args: readonly string[]): string {
  const end = args.indexOf('--');
  const words = (end === -1 ? args : args.slice(0, end)).filter((arg) => /^[a-z][a-z-]*$/.test(arg)).slice(0, 2);
  return [command, ...words].join(' ');
}

export interface CommandOptions {
  cwd: string;
  /** Added to this process's environment (a value of undefined removes the variable). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where the child's output goes, a chunk at a time (already escaped); default: nowhere. */
  echo?: (text: string) => void;
  /** Kill the child past this many milliseconds (default: no bound). */
  timeoutMs?: number;
}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Longest output kept of one child, per stream: enough for its last lines and a deployment URL. */
const KEPT_OUTPUT = 64 * 1024;

/** Run `command args` to its end; never throws for a non-zero exit (the caller decides), only for a spawn failure. */
export function runCommand(command: string, args: readonly string[], options: CommandOptions): Promise<CommandResult> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const keep = (kept: string, chunk: string) => (kept + chunk).slice(-KEPT_OUTPUT);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout = keep(stdout, chunk);
      options.echo?.(printableLines(chunk));
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = keep(stderr, chunk);
      options.echo?.(printableLines(chunk));
    });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            stderr = keep(stderr, `\nstopped after ${options.timeoutMs} ms`);
            child.kill('SIGKILL');
          }, options.timeoutMs);
    child.once('error', (error) => {
      if (timer) clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
}

/**
 * Run a step's command; a non-zero exit, or a command that cannot be started, is `StepFailed` naming the
 * step, the exit code and the child's last line.
 */
export async function runStep(
  step: string,
  command: string,
  args: readonly string[],
  options: CommandOptions,
): Promise<CommandResult> {
  let result: CommandResult;
  try {
    result = await runCommand(command, args, options);
  } catch (error) {
    throw new StepFailed(step, `cannot run ${command} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (result.code !== 0) {
    const said = lastLine(result.stderr) || lastLine(result.stdout);
    throw new StepFailed(step, `${commandName(command, args)} exited with ${result.code}${said ? `: ${said}` : ''}`);
  }
  return result;
}
