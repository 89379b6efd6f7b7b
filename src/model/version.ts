/** The version of this project's tools (the MCP server's and the CLI's), as `package.json` states it. */
export const TOOL_VERSION = '0.1.0';
