/**
 * A policy kept in the repository beside the configurations it judges: `.mcp-trust.json` (JSON with comments)
 * or `.mcp-trust.yaml` / `.yml` at the checked folder's root, or the file `--policy` names. Read with the same
 * bounded reader as the configurations and validated by the one policy schema, so a member or a flag the
 * check does not know is an error that names the file and the member, never a rule that matches nothing.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc, type ParseError, printParseErrorCode } from 'jsonc-parser';
import { parse as parseYaml } from 'yaml';
import { type z } from 'zod';
import { type Policy, PolicySchema } from '../model/check.js';
import { readConfigText } from './read-config.js';

/** Where a policy is looked for at the checked folder's root, in this order; the first that exists is read. */
export const POLICY_FILES = ['.mcp-trust.json', '.mcp-trust.yaml', '.mcp-trust.yml'] as const;

/** The policy file could not be used: one line naming the file and what is wrong. */
export class PolicyFileError extends Error {
  override name = 'PolicyFileError';
}

/** The policy file of `cwd`, if there is one. */
export function findPolicyFile(cwd: string): string | undefined {
  return POLICY_FILES.find((file) => existsSync(path.join(cwd, file)));
}

/** Both parsers recurse once per level of nesting: a file of a million `[` is refused in one line, not a crash. */
const tooDeep = (file: string, kind: string) => new PolicyFileError(`${file}: not valid ${kind} (nested too deeply)`);

function parseText(file: string, text: string): unknown {
  if (/\.ya?ml$/i.test(file)) {
    try {
      return parseYaml(text, { maxAliasCount: 100 }) as unknown;
    } catch (error) {
      // The YAML parser reports its own stack overflow as a parse error at the place it stopped.
      if (error instanceof RangeError || /Maximum call stack/.test((error as Error).message))
        throw tooDeep(file, 'YAML');
      throw new PolicyFileError(`${file}: not valid YAML: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const errors: ParseError[] = [];
  let value: unknown;
  try {
    value = parseJsonc(text, errors, { allowTrailingComma: true }) as unknown;
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep(file, 'JSON');
    throw error;
  }
  if (errors.length > 0) {
    throw new PolicyFileError(
      `${file}: not valid JSON: ${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}`,
    );
  }
  return value;
}

/** The first problem of a policy, in one line: `policy.min_score must be …` or `policy.exceptions[0].until: …`. */
function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const where = issue.path.length === 0 ? 'policy' : `policy.${issue.path.map(String).join('.')}`;
  if (issue.code === 'unrecognized_keys')
    return `${where} has a member the check does not know: ${issue.keys.join(', ')}`;
  return issue.message.startsWith('policy.') ? issue.message : `${where}: ${issue.message}`;
}

/** Read and validate a policy file; a PolicyFileError when it cannot be used. */
export async function readPolicyFile(file: string, cwd: string, within?: string): Promise<Policy> {
  let text: string;
  try {
    text = await readConfigText(file, { cwd, ...(within === undefined ? {} : { within }) });
  } catch (error) {
    throw new PolicyFileError((error as Error).message);
  }
  const value = parseText(file, text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new PolicyFileError(
      `${file}: a policy is an object of members such as min_score, deny_flags, strict, allow, exceptions`,
    );
  }
  const parsed = PolicySchema.safeParse(value);
  if (!parsed.success) throw new PolicyFileError(`${file}: ${firstProblem(parsed.error)}`);
  return parsed.data;
}
