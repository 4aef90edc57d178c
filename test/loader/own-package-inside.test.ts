/**
 * A server directory that holds mcp-dir's own files outside node_modules: an
 * npm workspace with mcp-dir as one of its packages (node_modules/mcp-dir
 * links to packages/mcp-dir), or mcp-dir's own repository. The package's code
 * is not the author's: it loads as any package does, not compiled as a tool.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { createEmptyDir, REPO_ROOT, removeServerDirs } from "./helpers/server-dir.js";

afterAll(removeServerDirs);

it("lists a workspace's tools with the CLI of the mcp-dir package it holds", async () => {
  const dir = await createEmptyDir();
  const own = join(dir, "packages", "mcp-dir");
  await mkdir(own, { recursive: true });
  await cp(join(REPO_ROOT, "dist"), join(own, "dist"), { recursive: true });
  await cp(join(REPO_ROOT, "package.json"), join(own, "package.json"));
  await symlink(join(REPO_ROOT, "node_modules"), join(own, "node_modules"), "dir");
  await mkdir(join(dir, "node_modules"));
  await symlink(join("..", "packages", "mcp-dir"), join(dir, "node_modules", "mcp-dir"), "dir");
  await symlink(join(REPO_ROOT, "node_modules", "zod"), join(dir, "node_modules", "zod"), "dir");
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ type: "module", workspaces: ["packages/*"] }),
  );
  await mkdir(join(dir, "tools"));
  await writeFile(
    join(dir, "tools", "echo.ts"),
    `import { defineTool } from "mcp-dir";
import { z } from "zod";

export default defineTool({
  description: "Echoes",
  input: { message: z.string() },
  handler: ({ message }) => message,
});
`,
  );

  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    [join(own, "dist", "cli", "main.js"), "list", dir],
    { cwd: dir },
  );
  expect({ stdout, stderr }).toEqual({
    stdout: `KIND  NAME  SOURCE         DESCRIPTION
tool  echo  tools/echo.ts  Echoes

1 tool, 0 prompts, 0 resources
`,
    stderr: "",
  });
});
