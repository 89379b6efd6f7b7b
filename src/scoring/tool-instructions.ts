/**
 * Whether a tool's words address the model rather than describe the tool: the rules behind TOOL_INSTRUCTIONS
 * (docs/method.md lists them). A tool description reaches the model's context as it is, so a publisher can
 * hide instructions there ("tool poisoning", Invariant Labs, April 2025): a tag the user never sees, an order
 * to ignore the instructions before it, characters a screen does not show, an order aimed at another tool, or
 * an order to read the files that hold a user's keys. Each rule is a pattern over the text, chosen so that the
 * ordinary descriptions of real servers ("Reads a file from the allowed directories") match none; each has
 * a test from a published example (test/scoring/tool-instructions.test.ts). Pure, bounded by the pinned tools'
 * own bounds (`src/model/tools.ts`).
 */
import type { PinnedTool } from '../model/tools.js';

export interface ToolInstructionRule {
  id: string;
  /** What the rule finds, as docs/method.md says it. */
  meaning: string;
  matches(text: string): boolean;
}

const HIDDEN_TAG =
  /<\s*\/?\s*(important|critical|system|system[-_ ]?prompt|instructions?|hidden|secret|admin)\b[^>]{0,80}>|\[\/?INST\]|<\|im_(start|end)\|>/i;

const OVERRIDE =
  /\b(ignore|disregard|forget|override|bypass)\s+(all\s+|any\s+)?(of\s+)?(the\s+|your\s+|these\s+)?(previous|prior|above|earlier|preceding|former|other|system|safety|original)\s+(instructions?|prompts?|rules?|directions?|directives?|guidelines?|messages?)/i;

/** Zero-width and bidirectional controls, word joiners, the byte-order mark inside text, and Unicode tags. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/u;

/** ESC (ANSI colour, cursor and OSC sequences) and the other C0 controls but tab and the line ends. */
// eslint-disable-next-line no-control-regex -- finding control characters is the rule
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Files that hold a user's keys or other servers' secrets. */
const SECRET_FILE =
  /~\/\.ssh\b|\bid_(rsa|dsa|ecdsa|ed25519)\b|\bmcp\.json\b|claude_desktop_config\.json|~\/\.cursor\b|~\/\.aws\b|\.aws\/credentials|\.netrc\b|\.npmrc\b|\.git-credentials\b|\.docker\/config\.json/i;
/** `.env` only as something to read, pass or send: a tool may name it in passing. */
const ENV_FILE_READ = /\b(read|pass|send|include|upload|attach|cat|open)\b[^.\n]{0,60}(^|[\s`'"(])\.env\b/im;

/** An order about another tool: "when (x) send_message is invoked", "a side effect on the send_email tool". */
const OTHER_TOOL = [
  /\b(when|whenever|before|after)\s+(?!this\b|it\b)[^.\n]{0,60}?\b[a-z][\w.-]*_[\w.-]+\b[^.\n]{0,20}?\b(is|are|gets?)\s+(invoked|called|executed|run)\b/i,
  /\bside[- ]effects?\b[^.\n]{0,60}\btools?\b/i,
  /\b(change|replace|redirect|set)\s+the\s+(recipient|destination|receiver|to[- ]address)\b/i,
];

/** An order to keep what it does from the user. */
const CONCEALMENT =
  /\b(do\s+not|don'?t|never|without)\s+(tell(ing)?|mention(ing)?|inform(ing)?|notify(ing)?|reveal(ing)?|alert(ing)?|show(ing)?)\b[^.\n]{0,40}\buser\b/i;

export const TOOL_INSTRUCTION_RULES: readonly ToolInstructionRule[] = [
  {
    id: 'hidden-tag',
    meaning: 'a tag addressed to the model: <IMPORTANT>, <system>, <instructions>, <hidden>, <secret>, [INST] and kin',
    matches: (text) => HIDDEN_TAG.test(text),
  },
  {
    id: 'override',
    meaning: '"ignore previous instructions" and its kin (disregard, forget, override the prior or system rules)',
    matches: (text) => OVERRIDE.test(text),
  },
  {
    id: 'invisible-characters',
    meaning:
      'zero-width, bidirectional-control or Unicode tag characters (U+200B-U+200F, U+202A-U+202E, U+2066-U+2069, U+E0000-U+E007F)',
    matches: (text) => INVISIBLE.test(text),
  },
  {
    id: 'control-characters',
    meaning: 'terminal escapes (ANSI) and other control characters, which can hide text from a person reading it',
    matches: (text) => CONTROL.test(text),
  },
  {
    id: 'secret-files',
    meaning:
      'names a file holding keys or secrets to read or pass on (~/.ssh, id_rsa, mcp.json, ~/.aws, .netrc, a .env to read)',
    matches: (text) => SECRET_FILE.test(text) || ENV_FILE_READ.test(text),
  },
  {
    id: 'other-tools',
    meaning:
      'orders about another tool: when another tool is invoked, a side effect on other tools, a changed recipient',
    matches: (text) => OTHER_TOOL.some((pattern) => pattern.test(text)),
  },
  {
    id: 'concealment',
    meaning: 'asks the model not to tell the user (do not mention, notify or reveal ... the user)',
    matches: (text) => CONCEALMENT.test(text),
  },
];

/** The ids of the rules `text` matches, in the rules' order. */
export function instructionRulesOf(text: string): string[] {
  return TOOL_INSTRUCTION_RULES.filter((rule) => rule.matches(text)).map((rule) => rule.id);
}

/** Every `description` and `title` string inside an input schema, depth and count bounded. */
function schemaTexts(value: unknown, out: string[], depth = 0): void {
  if (depth > 12 || out.length > 2_000 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) schemaTexts(item, out, depth + 1);
    return;
  }
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    if ((key === 'description' || key === 'title') && typeof member === 'string') out.push(member);
    else schemaTexts(member, out, depth + 1);
  }
}

/** A tool whose words match a rule, and which rules. */
export interface InstructedTool {
  tool: string;
  rules: string[];
}

/** The tools whose name, title, description or parameter descriptions match any rule. */
export function toolsWithInstructions(tools: readonly PinnedTool[]): InstructedTool[] {
  const found: InstructedTool[] = [];
  for (const tool of tools) {
    const texts = [tool.name, tool.description ?? '', tool.annotations.title ?? ''];
    schemaTexts(tool.input_schema, texts);
    const rules = new Set(texts.flatMap(instructionRulesOf));
    if (rules.size > 0) {
      found.push({ tool: tool.name, rules: TOOL_INSTRUCTION_RULES.map((r) => r.id).filter((id) => rules.has(id)) });
    }
  }
  return found;
}
