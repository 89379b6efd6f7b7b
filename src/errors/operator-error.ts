/**
 * Expected failures an operator can fix: a bad setting, a missing snapshot, a store that cannot be reached,
 * a wrong command line. Each is one line that names what is wrong and what is allowed, and an exit code;
 * every script prints exactly that line (`scripts/lib/main.ts`), never a stack trace. Anything else that
 * escapes is a bug, and gets its stack.
 */
export class OperatorError extends Error {
  override name = 'OperatorError';
  /** The exit code of a script that stops on this error. */
  readonly exitCode: number = 1;

  constructor(message: string, options?: { cause?: unknown; exitCode?: number }) {
    // One line: whatever a cause's message brought in is folded, so a log line never breaks in two.
    super(message.replace(/\s*\n\s*/g, '; '), options?.cause === undefined ? undefined : { cause: options.cause });
    if (options?.exitCode !== undefined) this.exitCode = options.exitCode;
  }
}

/**
 * A command line the script cannot act on (an unknown command, a bad argument, a prefix that matches no
 * key). Its first line says what is wrong; a usage text may follow it, so its lines are kept.
 */
export class UsageError extends OperatorError {
  override name = 'UsageError';
  constructor(message: string) {
    super(message.split('\n')[0] ?? message);
    this.message = message;
  }
}
