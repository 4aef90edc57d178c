import { afterAll, describe, expect, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { runCli, stopAll } from "./helpers/cli.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const TASK_LINE =
  /^task [0-9a-f-]{36}: (working|input_required|completed|failed|cancelled)(: .+)?$/;

describe("mcp-dir call of a tool that runs as a task", () => {
  it("runs the task to its end, its status on stderr, its result on stdout", async () => {
    const { code, stdout, stderr } = await runCli([
      "call",
      "report",
      '{"pauseMs": 0}',
      "--dir",
      "example-server",
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        "# Team report",
        "",
        "## platform (2)",
        "- Grace Hopper: compilers, cobol",
        "- Margaret Hamilton: flight software, reliability",
        "",
        "## design (1)",
        "- Susan Kare: icons, typography",
        "",
        "## research (2)",
        "- Ada Lovelace: mathematics, algorithms",
        "- Alan Turing: cryptography, computability",
        "",
      ].join("\n"),
    );
    const lines = stderr.trimEnd().split("\n");
    // Progress before the task begins goes with the call; after, it is the task's status.
    expect(lines[0]).toBe("progress 0/3 writing the platform section");
    expect(lines.slice(1).every((line) => TASK_LINE.test(line))).toBe(true);
    expect(lines.at(-1)).toMatch(/^task [0-9a-f-]{36}: completed$/);
  });

  it("says what a task asked for when there is no terminal to ask on, and exits 1", async () => {
    const dir = await createServerDir({
      "tools/confirm.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Asks once working",
  task: "required",
  handler: async (_args, ctx) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    const answer = await ctx.elicit({ message: "Go on?", schema: { ok: z.boolean() } });
    return answer.action;
  },
});`,
    });
    const { code, stdout, stderr } = await runCli(["call", "confirm", "--dir", dir]);
    expect({ code, stdout }).toEqual({ code: 1, stdout: "" });
    // Whether the task was still working when the follow began is a race of no interest here.
    expect(stderr).toMatch(
      /^(task [0-9a-f-]{36}: working\n)?task [0-9a-f-]{36}: input_required\nmcp-dir call: confirm asked for input, and stdin is not a terminal to ask on:\n {2}elicitation-1: Go on\? \[ok \(boolean, required\)\]\nRun the command in a terminal to answer\.\n$/,
    );
  });
});
