/**
 * How every script ends: `runMain(main)` runs it and, when it throws an `OperatorError`, prints its one
 * line and exits with its code; anything else is a bug and is printed with its stack. Command-line parse
 * errors of `node:util`'s `parseArgs` are usage errors too.
 */
import { OperatorError } from '../../src/errors/operator-error.js';

function isParseArgsError(error: unknown): error is Error {
  return error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS');
}

/** Run `main`; its resolved number (if any) is the exit code. Exits on failure. */
export function runMain(main: () => Promise<number | void> | number | void): void {
  Promise.resolve()
    .then(main)
    .then(
      (code) => {
        if (typeof code === 'number') process.exitCode = code;
      },
      (error: unknown) => {
        if (error instanceof OperatorError) {
          console.error(error.message);
          process.exit(error.exitCode);
        }
        if (isParseArgsError(error)) {
          console.error(error.message);
          process.exit(2);
        }
        console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
        process.exit(1);
      },
    );
}
