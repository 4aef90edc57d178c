/**
 * `mcp-dir call` at a terminal: a tool that asks the user (ctx.elicit) is
 * answered there. The CLI runs under `script`, which gives it a real
 * pseudo-terminal; what the test writes is what the user types.
 */
import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { CLI, EXAMPLE_SERVER } from "./helpers/cli.js";

function callAtTerminal(
  args: string,
  typed: string,
  tool = "team_invite",
  dir = EXAMPLE_SERVER,
): Promise<{ code: number | null; screen: string }> {
  const command = `${process.execPath} ${CLI} call ${tool} '${args}' --dir ${dir}`;
  const child = spawn("script", ["-qec", command, "/dev/null"], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let screen = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    screen += chunk;
  });
  child.stdin.end(typed);
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, screen })));
}

/** ESC [ ... letter: the terminal's cursor controls. */
const CURSOR_CONTROL = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, "g");
/** The screen as a person reads it. */
const plain = (screen: string) => screen.replace(CURSOR_CONTROL, "").replace(/\r/g, "");

describe("mcp-dir call at a terminal", () => {
  it("asks each field of an elicitation and runs the tool with the answers", async () => {
    const { code, screen } = await callAtTerminal(
      '{"email": "kay@example.com"}',
      "a\nplatform\nmember\n",
    );
    expect(code).toBe(0);
    const shown = plain(screen);
    expect(shown).toContain("Which team should kay@example.com join, and with which role?\n");
    expect(shown).toContain("Answer (a), decline (d) or cancel (c)? [a] ");
    expect(shown).toContain("team (The team) [string; one of platform, design, research]: ");
    expect(shown).toContain("role (Their role in the team) [string; one of member, admin]: ");
    expect(shown.trimEnd()).toMatch(/Invited kay@example\.com to platform as a member\.$/);
  });

  it("asks again for a value outside the choices, and declines when told to", async () => {
    const retried = plain(
      (await callAtTerminal('{"email": "kay@example.com"}', "\nmarketing\ndesign\nadmin\n")).screen,
    );
    expect(retried).toContain("team must be one of platform, design, research\n");
    expect(retried.trimEnd()).toMatch(/Invited kay@example\.com to design as an admin\.$/);
    const declined = await callAtTerminal('{"email": "kay@example.com"}', "d\n");
    expect(plain(declined.screen).trimEnd()).toMatch(
      /No invitation sent: the user chose to decline\.$/,
    );
  });

  it("shows the page a tool sends the user to, and goes on when they say they are done", async () => {
    const dir = await createServerDir({
      "tools/sign-in.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Sends the user to a page",
  handler: async (_args, ctx) => {
    const outcome = await ctx.elicit({ message: "Sign in to Example", url: "https://example.com/connect" });
    return "the user said " + outcome.action;
  },
});`,
    });
    const { code, screen } = await callAtTerminal("{}", "\n", "sign-in", dir);
    expect(code).toBe(0);
    const shown = plain(screen);
    expect(shown).toContain(
      "Sign in to Example\nOpen this page in your browser: https://example.com/connect\n",
    );
    expect(shown.trimEnd()).toMatch(/the user said accept$/);
  });
});

afterAll(removeServerDirs);
