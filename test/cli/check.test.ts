import { afterAll, describe, expect, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { runCli, stopAll } from "./helpers/cli.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

describe("mcp-dir check", () => {
  it("exits 0 and says what the directory serves when all is well", async () => {
    expect(await runCli(["check", "example-server"])).toEqual({
      code: 0,
      stdout:
        "middleware: tools/text/_middleware.ts wraps 1 definition: text_stats\n" +
        "view: ui://poll (views/poll.ts) shows poll, poll_vote\n" +
        "mcp-dir check: example-server is fine: 10 tools, 2 prompts, 3 resources, 1 resource template, 1 view\n",
      stderr: "",
    });
  });

  it("prints every problem and warning on stdout and exits 1", async () => {
    const dir = await createServerDir({
      "mcp-dir.config.json": '{ "pageSize": -1 }',
      "tools/math.ts": 'export const add = { description: "Add", handler: () => 1 };\n',
      "tools/math/add.ts": 'export default { description: "Add again", handler: () => 1 };\n',
      "tools/broken.ts": "export default {\n",
      "prompts/empty.md": "",
      "resources/readme.txt": "Served as is\n",
      "resources/shared.ts": "export const notADefinition = true;\n",
    });
    const { code, stdout, stderr } = await runCli(["check", dir]);
    expect(stderr).toBe("");
    expect(code).toBe(1);
    expect(stdout).toBe(
      `warning: resources/shared.ts: exports no definition, so it serves nothing; export a resource (as default or named), or rename the file to "_shared.ts" if it is a helper
error: mcp-dir.config.json: pageSize must be a positive integer
error: prompts/empty.md: the body is empty: write the prompt's text below the front matter
error: tools/broken.ts: SyntaxError: Expected identifier but found end of file (2:1)
error: tools/math/add.ts: Tool "math_add" is defined in both tools/math.ts and tools/math/add.ts; rename one of them
mcp-dir check: 4 problems in ${dir}; fix them and run again
`,
    );
  });
  it("says exports.default in CommonJS is not a default export, not that every field is missing", async () => {
    const files = {
      "tools/wrapped.js": 'exports.default = { description: "d", handler: () => "x" };\n',
      "prompts/wrapped.js": 'exports.default = { messages: [{ role: "user", content: "Hi" }] };\n',
      "resources/wrapped.js":
        'module.exports = { default: { uri: "config://app", read: () => "x" } };\n',
    };
    const hint = (kind: string) =>
      `holds no ${kind}, only a "default" object: exports.default = … in CommonJS is not a default export, as the file's default is module.exports, { default: … }; write module.exports = … or export default …`;
    for (const packageJson of [{}, { type: "module" }]) {
      const dir = await createServerDir(files, { packageJson });
      const { code, stdout, stderr } = await runCli(["check", dir]);
      expect(stderr).toBe("");
      expect(code).toBe(1);
      expect(stdout).toBe(
        `error: prompts/wrapped.js (export "default"): ${hint("prompt")}
error: resources/wrapped.js (export "default"): ${hint("resource")}
error: tools/wrapped.js (export "default"): ${hint("tool")}
mcp-dir check: 3 problems in ${dir}; fix them and run again
`,
      );
    }
  });
});
