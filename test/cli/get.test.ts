import { afterAll, describe, expect, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { AUTHOR_STDOUT, runCli, stopAll } from "./helpers/cli.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const get = (...args: string[]) => runCli(["get", ...args, "--dir", "example-server"]);

const PIXEL = Buffer.from("not really a png").toString("base64");

describe("mcp-dir get", () => {
  it("prints a prompt's messages, each under its role", async () => {
    expect(await get("code_review", '{"code": "x = 1", "language": "python"}')).toEqual({
      code: 0,
      stdout:
        "[user]\nPlease review this python code.\nPoint out bugs first, then risky patterns, then style; suggest concrete changes.\n\n```python\nx = 1\n```\n",
      stderr: "",
    });
  });

  it("exits 1 with the server's error, such as a required argument left out", async () => {
    expect(await get("standup", '{"today": "tests"}')).toEqual({
      code: 1,
      stdout: "",
      stderr:
        'mcp-dir get: Missing required argument for prompt "standup": yesterday (JSON-RPC error -32602)\n',
    });
  });

  it("prints the whole GetPromptResult with --json", async () => {
    const whole = await get("code_review", '{"code": "x"}', "--json");
    expect(whole.code).toBe(0);
    expect(JSON.parse(whole.stdout)).toEqual({
      description: "Asks for a focused review of a piece of code",
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: "Please review this code.\nPoint out bugs first, then risky patterns, then style; suggest concrete changes.\n\n```\nx\n```",
          },
        },
      ],
    });
  });

  it("renders several messages, summarises images, sends numbers and booleans as text, logs to stderr", async () => {
    const dir = await createServerDir({
      "prompts/story.ts": `import { definePrompt } from "mcp-dir";
import { z } from "zod";

export default definePrompt({
  description: "A story",
  arguments: { pages: z.string(), color: z.string() },
  get: ({ pages, color }, ctx) => {
    console.log("building the story");
    ctx.log.info({ pages });
    return [
      { role: "user", content: \`Write \${pages} pages, in color: \${color}\` },
      { role: "assistant", content: { type: "image", data: "${PIXEL}", mimeType: "image/png" } },
    ];
  },
});
`,
    });
    expect(
      await runCli(["get", "story", '{"pages": 3, "color": true}', "--dir", dir], AUTHOR_STDOUT),
    ).toEqual({
      code: 0,
      stdout: "[user]\nWrite 3 pages, in color: true\n\n[assistant]\n[image image/png, 16 bytes]\n",
      stderr: 'building the story\nlog info: {"pages":"3"}\n',
    });
  });

  it("names the prompts there are when there is no such prompt, exit 1", async () => {
    const empty = await createServerDir({
      "tools/noop.ts": 'export default { description: "No-op", handler: () => "" };\n',
    });
    const results = await Promise.all([get("nope"), runCli(["get", "nope", "--dir", empty])]);
    expect(results).toEqual([
      {
        code: 1,
        stdout: "",
        stderr:
          'mcp-dir get: there is no prompt "nope" in example-server; the prompts are code_review, standup\n',
      },
      {
        code: 1,
        stdout: "",
        stderr: `mcp-dir get: there is no prompt "nope" in ${empty}; it has no prompts\n`,
      },
    ]);
  });

  it("rejects a missing name and arguments that are not a JSON object of text, exit 2", async () => {
    const results = await Promise.all([
      runCli(["get"]),
      get("code_review", "[1]"),
      get("code_review", '{"code": {"a": 1}}'),
    ]);
    expect(results).toEqual([
      {
        code: 2,
        stdout: "",
        stderr: "mcp-dir: Missing the name of the prompt. See 'mcp-dir get --help'\n",
      },
      {
        code: 2,
        stdout: "",
        stderr: `mcp-dir: The arguments must be a JSON object, such as '{"a": 1}'. See 'mcp-dir get --help'\n`,
      },
      {
        code: 2,
        stdout: "",
        stderr: `mcp-dir: The prompt argument "code" must be text (prompt arguments are strings), such as '{"code": "..."}'. See 'mcp-dir get --help'\n`,
      },
    ]);
  });
});
