/** The names a server directory's configuration file may have, in the order they are looked for. */
export const CONFIG_FILES = [
  "mcp-dir.config.ts",
  "mcp-dir.config.mts",
  "mcp-dir.config.js",
  "mcp-dir.config.mjs",
  "mcp-dir.config.json",
];
