/**
 * Server directories for `mcp-dir check --typecheck`, with the project's own
 * TypeScript linked as `npm install` would give it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createServerDir, linkRepoPackages, REPO_ROOT } from "../../loader/helpers/server-dir.js";

export const TS_VERSION = (
  JSON.parse(
    readFileSync(join(REPO_ROOT, "node_modules", "typescript", "package.json"), "utf8"),
  ) as { version: string }
).version;

/** A tool whose handler multiplies `a` by `b`, written as `expression`. */
export const multiply = (expression: string) => `import { defineTool } from "mcp-dir";
import { z } from "zod";

export default defineTool({
  description: "Multiplies a by b",
  input: { a: z.string(), b: z.number() },
  handler: ({ a, b }) => String(${expression}),
});
`;

/** A server directory with the project's own TypeScript installed (linked). */
export async function serverWithTypeScript(files: Record<string, string>): Promise<string> {
  const dir = await createServerDir(files);
  await linkRepoPackages(dir, ["typescript"]);
  return dir;
}
