// Generated from src/cli/browser.ts by scripts/generated-files.ts: do not edit.

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

// src/cli/config-files.ts
var DEFAULT_CONFIG_FILES = [".mcp.json", ".vscode/mcp.json", ".cursor/mcp.json", "claude_desktop_config.json"];
var ConfigFileError = class extends OperatorError {
  name = "ConfigFileError";
  constructor(message) {
    super(message, { exitCode: 2 });
  }
};
function stripJsonc(text) {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (char === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (char === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const comment = text.slice(i, end === -1 ? text.length : end + 2);
      out += comment.replace(/[^\n]/g, " ");
      i = end === -1 ? text.length : end + 2;
    } else {
      out += char;
      i++;
    }
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}
var lineAt = (text, index) => text.slice(0, index).split("\n").length;
function lineOf(text, name, from) {
  const key = JSON.stringify(name);
  const at = text.indexOf(key, from);
  return at === -1 ? 1 : lineAt(text, at);
}
function stringList(value) {
  return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
}
function parseConfigFile(file, text) {
  const json = stripJsonc(text.replace(/^\uFEFF/, ""));
  let parsed;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new ConfigFileError(`${file}: not valid JSON (${error.message})`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ConfigFileError(`${file}: expected a JSON object with "mcpServers" or "servers"`);
  }
  const root = parsed;
  const key = "mcpServers" in root ? "mcpServers" : "servers" in root ? "servers" : void 0;
  if (key === void 0) throw new ConfigFileError(`${file}: no "mcpServers" or "servers" object in it`);
  const servers = root[key];
  if (servers === null || typeof servers !== "object" || Array.isArray(servers)) {
    throw new ConfigFileError(`${file}: "${key}" must be an object of server entries`);
  }
  const from = json.indexOf(`"${key}"`);
  return Object.entries(servers).map(([name, value]) => {
    const entry = value !== null && typeof value === "object" ? value : {};
    const url = typeof entry.url === "string" ? entry.url : typeof entry.serverUrl === "string" ? entry.serverUrl : void 0;
    return {
      file,
      name,
      line: lineOf(json, name, from),
      ...typeof entry.command === "string" ? { command: entry.command } : {},
      args: stringList(entry.args),
      ...url === void 0 ? {} : { url }
    };
  });
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
    if (arg === "--") return args[i + 1];
    const [name, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, void 0];
    if (ecosystem !== "oci" && (name === "--package" || name === "--from" || ecosystem === "npm" && name === "-p")) {
      return inline ?? args[i + 1];
    }
    if (!arg.startsWith("-")) return arg;
    if (inline === void 0 && takesValue.has(name)) i++;
  }
  return void 0;
}
function launched(ecosystem, args, entry) {
  const target = firstPositional(args, ecosystem);
  if (target === void 0 || target === "") {
    return { ok: false, reason: `"${entry.command}" names no ${ecosystem === "oci" ? "image" : "package"} to run` };
  }
  return { ok: true, item: { package: `${ecosystem}:${target}` } };
}
function itemForEntry(entry) {
  if (entry.url !== void 0) return { ok: true, item: { url: entry.url } };
  if (entry.command === void 0) return { ok: false, reason: "it has neither a command nor a url" };
  const command = commandName(entry.command);
  const [first, ...rest] = entry.args;
  switch (command) {
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
  const shown = [entry.command, ...entry.args.slice(0, 2)].join(" ");
  return {
    ok: false,
    reason: `"${shown}" runs a program this check cannot identify (known: npx, bunx, pnpm dlx, yarn dlx, uvx, pipx run, docker run, or a url)`
  };
}
export {
  DEFAULT_CONFIG_FILES,
  itemForEntry,
  parseConfigFile
};
