import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEmptyDir, createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { connectToServe, PROCESS_WIDE, runCli, stopAll } from "./helpers/cli.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

describe("mcp-dir serve", () => {
  it("announces itself on stderr and exits 0 when stdin closes, even if author code holds a timer", async () => {
    const dir = await createServerDir(
      {
        "tools/ticker.ts": `setInterval(() => {}, 1000);
export default { description: "Keeps a timer running", handler: () => "tick" };
`,
      },
      { packageJson: { name: "ticker", version: "0.3.0", type: "module" } },
    );
    expect(await runCli(["serve", dir], PROCESS_WIDE)).toEqual({
      code: 0,
      stdout: "",
      stderr: `mcp-dir: serving ticker 0.3.0 from ${dir} (1 tool, 0 prompts, 0 resources) over stdio; waiting for a client on stdin\n`,
    });
  });

  it("serves the current directory by default", async () => {
    const dir = await createServerDir(
      { "prompts/hello.md": "Hello\n" },
      { packageJson: { name: "here", type: "module" } },
    );
    const { code, stderr } = await runCli(["serve"], { cwd: dir });
    expect(code).toBe(0);
    expect(stderr).toBe(
      "mcp-dir: serving here 0.0.0 from . (0 tools, 1 prompt, 0 resources) over stdio; waiting for a client on stdin\n",
    );
  });

  it("keeps stdout for protocol messages: author console.log goes to stderr", async () => {
    const dir = await createServerDir({
      "tools/chatty.ts": `console.log("hello from import");
export default {
  description: "Logs to stdout",
  handler: () => {
    console.log("hello from handler");
    return "ok";
  },
};
`,
    });
    const connection = await connectToServe(dir);
    const errors: Error[] = [];
    connection.client.onerror = (error) => errors.push(error);
    expect(await connection.client.callTool({ name: "chatty", arguments: {} })).toEqual({
      content: [{ type: "text", text: "ok" }],
    });
    expect(await connection.client.ping()).toEqual({});
    expect(errors).toEqual([]);
    expect(await connection.waitForStderr("hello from handler\n")).toBe(
      `hello from import\nmcp-dir: serving ${dir.split(/[/\\]/).pop()} 0.0.0 from ${dir} (1 tool, 0 prompts, 0 resources) over stdio; waiting for a client on stdin\nhello from handler\n`,
    );
  });

  it("prints every problem with its location and exits 1 without serving", async () => {
    const dir = await createServerDir({
      "tools/broken.ts": "export default {\n  description: 'x',\n  handler: () => {\n};\n",
      "tools/invalid.ts": "export default { description: 'no handler' };\n",
    });
    expect(await runCli(["serve", dir])).toEqual({
      code: 1,
      stdout: "",
      stderr: `error: tools/broken.ts: SyntaxError: Expected "}" but found ";" (4:2)
error: tools/invalid.ts (export "default"): Tool "invalid" is invalid:
  - handler is missing: add handler: (args, ctx) => result
mcp-dir: 2 problems in ${dir}; fix them and run again
`,
    });
  });

  it("says so when the directory does not exist, exit 1", async () => {
    const missing = join(await createEmptyDir(), "missing");
    expect(await runCli(["serve", missing])).toEqual({
      code: 1,
      stdout: "",
      stderr: `mcp-dir: ${missing} is not a directory\n`,
    });
  });
});
