// Generated from src/cli/browser.ts by scripts/generated-files.ts: do not edit.

// src/cli/config-files.ts
import { parseTree, printParseErrorCode } from './jsonc-parser.js';

// src/errors/operator-error.ts
var OperatorError = class extends Error {
  name = "OperatorError";
  /** The exit code of a script that stops on this error. */
  exitCode = 1;
  constructor(message, options) {
    super(message.replace(/\s*\n\s*/g, "; "), options?.cause === void 0 ? void 0 : { cause: options.cause });
    if (options?.exitCode !== void 0) this.exitCode = options.exitCode;
  }
};

// src/model/printable.ts
var UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
var SHORT = { "\n": "\\n", "\r": "\\r", "	": "\\t" };
function escapeOne(char) {
  return SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}
function printable(text2, max) {
  const escaped = text2.replace(UNPRINTABLE, escapeOne);
  return max !== void 0 && escaped.length > max ? `${escaped.slice(0, max)}\u2026` : escaped;
}

// src/cli/config-files.ts
var DEFAULT_CONFIG_FILES = [".mcp.json", ".vscode/mcp.json", ".cursor/mcp.json", "claude_desktop_config.json"];
var ConfigFileError = class extends OperatorError {
  name = "ConfigFileError";
  constructor(message) {
    super(printable(message), { exitCode: 2 });
  }
};
function lineTable(text2) {
  const starts = [0];
  for (let at = text2.indexOf("\n"); at !== -1; at = text2.indexOf("\n", at + 1)) starts.push(at + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = low + high + 1 >> 1;
      if (starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}
function stringList(value) {
  return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
}
var text = (value) => typeof value === "string" ? value : void 0;
function entryFields(value) {
  const entry = value !== null && typeof value === "object" ? value : {};
  const url = text(entry.url) ?? text(entry.serverUrl) ?? text(entry.httpUrl);
  let command = text(entry.command);
  let args = stringList(entry.args);
  if (Array.isArray(entry.command)) {
    const [first, ...rest] = stringList(entry.command);
    command = first;
    args = [...rest, ...args];
  } else if (entry.command !== null && typeof entry.command === "object") {
    const inner = entry.command;
    command = text(inner.path) ?? text(inner.command);
    args = stringList(inner.args);
  }
  return { ...command === void 0 ? {} : { command }, args, ...url === void 0 ? {} : { url } };
}
function parseJsoncTree(file, source) {
  const body = source.replace(/^\uFEFF/, "");
  const errors = [];
  let root;
  try {
    root = parseTree(body, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (error) {
    if (error instanceof RangeError) throw new ConfigFileError(`${file}: not valid JSON (nested too deeply)`);
    throw error;
  }
  const lineOf = lineTable(body);
  const first = errors[0];
  if (first !== void 0 || root === void 0) {
    const where = first === void 0 ? "" : ` at line ${lineOf(first.offset)}`;
    const what = first === void 0 ? "empty" : printParseErrorCode(first.error);
    throw new ConfigFileError(`${file}: not valid JSON (${what}${where})`);
  }
  return { root, lineOf };
}
function member(node, key) {
  if (node?.type !== "object") return void 0;
  const property = node.children?.find((child) => child.children?.[0]?.value === key);
  return property?.children?.[1];
}
function entriesOf(file, servers, lineOf) {
  return (servers.children ?? []).flatMap((property) => {
    const [key, value] = property.children ?? [];
    if (key === void 0 || typeof key.value !== "string") return [];
    const plain = nodeValue(value, 0);
    if (plain === TOO_DEEP) {
      throw new ConfigFileError(
        `${file}: the server "${key.value.slice(0, 80)}" is nested more than ${MAX_DEPTH} levels deep`
      );
    }
    return [{ file, name: key.value, line: lineOf(key.offset), ...entryFields(plain) }];
  });
}
var MAX_DEPTH = 64;
var TOO_DEEP = /* @__PURE__ */ Symbol("too deep");
function nodeValue(node, depth) {
  if (node === void 0) return void 0;
  if (depth > MAX_DEPTH) return TOO_DEEP;
  if (node.type === "array") {
    const items = (node.children ?? []).map((child) => nodeValue(child, depth + 1));
    return items.includes(TOO_DEEP) ? TOO_DEEP : items;
  }
  if (node.type === "object") {
    const out = {};
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (typeof key?.value !== "string") continue;
      const member2 = nodeValue(value, depth + 1);
      if (member2 === TOO_DEEP) return TOO_DEEP;
      out[key.value] = member2;
    }
    return out;
  }
  return node.value;
}
function parseConfigFile(file, source) {
  const { root, lineOf } = parseJsoncTree(file, source);
  if (root.type !== "object") {
    throw new ConfigFileError(`${file}: expected a JSON object with "mcpServers" or "servers"`);
  }
  const key = member(root, "mcpServers") !== void 0 ? "mcpServers" : "servers";
  const servers = member(root, key);
  if (servers === void 0) throw new ConfigFileError(`${file}: no "mcpServers" or "servers" object in it`);
  if (servers.type !== "object") throw new ConfigFileError(`${file}: "${key}" must be an object of server entries`);
  return entriesOf(file, servers, lineOf);
}

// src/cli/entries.ts
function commandName(command) {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.replace(/\.(cmd|exe|bat|ps1)$/i, "").toLowerCase();
}
var VALUE_OPTIONS = {
  npm: /* @__PURE__ */ new Set(["--registry", "--cache", "--userconfig", "-c", "--call", "--node-options"]),
  pypi: /* @__PURE__ */ new Set(["--python", "-p", "--index-url", "-i", "--extra-index-url", "--with", "-w", "--spec", "--pip-args"]),
  oci: /* @__PURE__ */ new Set([
    ...["-e", "--env", "--env-file", "-v", "--volume", "--mount", "--name", "-p", "--publish", "--network"],
    ...["-w", "--workdir", "-u", "--user", "--entrypoint", "--platform", "--pull", "-l", "--label", "-h"],
    ...["--hostname", "--add-host", "--cpus", "-m", "--memory", "--restart", "--log-driver", "--cap-add"],
    ...["--cap-drop", "--security-opt", "--device", "--dns", "--tmpfs", "--ulimit", "--runtime", "--gpus"]
  ])
};
function firstPositional(args, ecosystem) {
  const takesValue = VALUE_OPTIONS[ecosystem];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") return { target: args[i + 1], after: args.slice(i + 2) };
    const [name, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, void 0];
    if (ecosystem !== "oci" && (name === "--package" || name === "--from" || ecosystem === "npm" && name === "-p")) {
      return { target: inline ?? args[i + 1], after: args.slice(inline === void 0 ? i + 2 : i + 1) };
    }
    if (!arg.startsWith("-")) return { target: arg, after: args.slice(i + 1) };
    if (inline === void 0 && takesValue.has(name)) i++;
  }
  return { target: void 0, after: [] };
}
var REMOTE_PROXIES = /* @__PURE__ */ new Set(["npm:mcp-remote", "npm:supergateway", "pypi:mcp-proxy"]);
function packageName(ecosystem, target) {
  const at = target.indexOf("@", target.startsWith("@") ? 1 : 0);
  const name = ecosystem === "npm" && at > 0 ? target.slice(0, at) : target.split(/[[=<>!~]/, 1)[0];
  return `${ecosystem}:${name.toLowerCase()}`;
}
function launched(ecosystem, args, entry) {
  const { target, after } = firstPositional(args, ecosystem);
  if (target === void 0 || target === "") {
    return { ok: false, reason: `"${shown(entry)}" names no ${ecosystem === "oci" ? "image" : "package"} to run` };
  }
  const proxy = packageName(ecosystem, target);
  if (REMOTE_PROXIES.has(proxy)) {
    const url = after.find((arg) => /^https?:\/\//i.test(arg));
    if (url !== void 0) return { ok: true, item: { url } };
    return { ok: false, reason: `"${shown(entry)}" runs the proxy ${proxy} with no http(s) URL to judge` };
  }
  return { ok: true, item: { package: `${ecosystem}:${target}` } };
}
function shown(entry) {
  const text2 = [entry.command ?? "", ...entry.args].join(" ");
  return text2.length > 200 ? `${text2.slice(0, 200)}\u2026` : text2;
}
function unwrapCmd(entry) {
  const [flag, ...rest] = entry.args;
  if (flag === void 0 || !/^\/[ck]$/i.test(flag)) return void 0;
  const words = rest.length === 1 ? rest[0].trim().split(/\s+/) : rest;
  const [command, ...args] = words;
  if (command === void 0 || command === "") return void 0;
  return { ...entry, command, args };
}
function itemForEntry(entry, depth = 0) {
  if (entry.url !== void 0) return { ok: true, item: { url: entry.url } };
  if (entry.command === void 0) return { ok: false, reason: "it has neither a command nor a url" };
  const command = commandName(entry.command);
  const [first, ...rest] = entry.args;
  switch (command) {
    case "cmd": {
      const inner = depth < 3 ? unwrapCmd(entry) : void 0;
      if (inner !== void 0) return itemForEntry(inner, depth + 1);
      break;
    }
    case "npm":
      if (first === "exec" || first === "x") return launched("npm", rest, entry);
      break;
    case "npx":
    case "bunx":
      return launched("npm", entry.args, entry);
    case "pnpm":
    case "yarn":
    case "bun":
      if (first === "dlx" || command === "bun" && first === "x") return launched("npm", rest, entry);
      break;
    case "uvx":
      return launched("pypi", entry.args, entry);
    case "pipx":
      if (first === "run") return launched("pypi", rest, entry);
      break;
    case "uv":
      if (first === "tool" && rest[0] === "run") return launched("pypi", rest.slice(1), entry);
      break;
    case "docker":
    case "podman":
      if (first === "run") return launched("oci", rest, entry);
      if (first === "container" && rest[0] === "run") return launched("oci", rest.slice(1), entry);
      break;
  }
  return {
    ok: false,
    reason: `"${shown(entry)}" runs a program this check cannot identify (known: npx, bunx, npm exec, pnpm dlx, yarn dlx, uvx, pipx run, docker run, cmd /c, or a url)`
  };
}
export {
  DEFAULT_CONFIG_FILES,
  itemForEntry,
  parseConfigFile
};
