import { defineConfig } from "mcp-dir";

/**
 * mcp-dir.config.ts is optional. Without it, the server's name and version
 * come from the directory's package.json (or its folder name and "0.0.0").
 */
export default defineConfig({
  name: "example-server",
  version: "1.0.0",
  title: "mcp-dir example",
  description: "A small team workspace: arithmetic, text statistics, charts and a team directory",
  instructions:
    "Tools: calculator, text_stats, temperature, chart, primes, report, team_lookup, team_invite, poll. " +
    "Team members are resources at users://{id}; read file:///guide.md for an overview.",
});
