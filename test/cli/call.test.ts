import { afterAll, describe, expect, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { AUTHOR_STDOUT, runCli, stopAll } from "./helpers/cli.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const call = (...args: string[]) => runCli(["call", ...args, "--dir", "example-server"]);

describe("mcp-dir call", () => {
  it("prints a tool's text result", async () => {
    expect(await call("calculator", '{"operation": "add", "a": 2, "b": 3}')).toEqual({
      code: 0,
      stdout: "5\n",
      stderr: "",
    });
  });

  it("prints structured content as indented JSON, and the whole result with --json", async () => {
    const args = '{"text": "Hello there. How are you?"}';
    const structured = await call("text_stats", args);
    expect(structured.code).toBe(0);
    expect(structured.stdout).toBe(
      `${JSON.stringify({ words: 5, sentences: 2, characters: 25, readingMinutes: 0 }, null, 2)}\n`,
    );
    const whole = await call("text_stats", args, "--json");
    expect(JSON.parse(whole.stdout)).toEqual({
      content: [
        { type: "text", text: '{"words":5,"sentences":2,"characters":25,"readingMinutes":0}' },
      ],
      structuredContent: { words: 5, sentences: 2, characters: 25, readingMinutes: 0 },
    });
  });

  it("summarises images and resource links", async () => {
    const chart = await call("chart", '{"values": [3, 1]}');
    expect(chart.stdout).toMatch(
      /^A bar chart of 2 values \(max 3\), 52×112 pixels\n\[image image\/png, \d+ bytes\]\n$/,
    );
    const lookup = await call("team_lookup", '{"query": "design"}');
    expect(lookup.stdout).toBe('[resource link users://susan "Susan Kare"]\n');
  });

  it("prints progress on stderr, and the result on stdout", async () => {
    const { code, stdout, stderr } = await call("primes", '{"below": 100}');
    expect(code).toBe(0);
    expect(stdout).toBe("There are 25 primes below 100.\n");
    expect(stderr).toBe(
      [
        "progress 10/100 4 primes below 10",
        "progress 20/100 8 primes below 20",
        "progress 30/100 10 primes below 30",
        "progress 40/100 12 primes below 40",
        "progress 50/100 15 primes below 50",
        "progress 60/100 17 primes below 60",
        "progress 70/100 19 primes below 70",
        "progress 80/100 22 primes below 80",
        "progress 90/100 24 primes below 90",
        "progress 100/100 25 primes below 100",
        "",
      ].join("\n"),
    );
  });

  it("exits 1 when the tool returns an error, or when there is no such tool", async () => {
    const results = await Promise.all([
      call("calculator", '{"operation": "divide", "a": 1, "b": 0}'),
      call("team_invite", '{"email": "kay@example.com"}'),
      call("nope"),
    ]);
    expect(results).toEqual([
      { code: 1, stdout: "Cannot divide by zero\n", stderr: "" },
      {
        code: 1,
        stdout: "",
        stderr:
          "mcp-dir call: team_invite asked for input, and stdin is not a terminal to ask on:\n" +
          "  elicitation-1: Which team should kay@example.com join, and with which role? [team (string, required), role (string, required)]\n" +
          "Run the command in a terminal to answer.\n",
      },
      {
        code: 1,
        stdout: "",
        stderr:
          'mcp-dir call: there is no tool "nope" in example-server; the tools are calculator, chart, poll, poll_vote, primes, report, team_invite, team_lookup, temperature, text_stats\n',
      },
    ]);
  });

  it("rejects arguments that are not a JSON object, exit 2", async () => {
    expect(await call("calculator", "{oops")).toEqual({
      code: 2,
      stdout: "",
      stderr: `mcp-dir: The arguments are not valid JSON: pass an object such as '{"a": 1}'. See 'mcp-dir call --help'\n`,
    });
    expect(await call("calculator", "[1, 2]")).toEqual({
      code: 2,
      stdout: "",
      stderr: `mcp-dir: The arguments must be a JSON object, such as '{"a": 1}'. See 'mcp-dir call --help'\n`,
    });
  });

  it("keeps stdout for the result: author console.log and ctx.log go to stderr", async () => {
    const dir = await createServerDir({
      "tools/chatty.ts": `console.log("loading chatty");
export default {
  description: "Talks a lot",
  handler: async (_args: unknown, ctx: { log: { info(data: unknown): void } }) => {
    console.log("working");
    ctx.log.info({ step: 1 });
    return "done";
  },
};
`,
    });
    expect(await runCli(["call", "chatty", "--dir", dir], AUTHOR_STDOUT)).toEqual({
      code: 0,
      stdout: "done\n",
      stderr: 'loading chatty\nworking\nlog info: {"step":1}\n',
    });
  });

  it("waits for the time limit of a handler that never settles, and reports it", async () => {
    // Nothing but the time limit (which holds no process open) would end these handlers.
    const never = "() => new Promise(() => {})";
    const dir = await createServerDir({
      "mcp-dir.config.json": JSON.stringify({ callTimeoutMs: 200 }),
      "tools/stuck.js": `export default { description: "Never answers", handler: ${never} };\n`,
      "prompts/stuck.js": `export default { description: "Never answers", get: ${never} };\n`,
      "resources/stuck.js": `export default { uri: "stuck://x", read: ${never} };\n`,
    });
    const [call, get, read] = await Promise.all([
      runCli(["call", "stuck", "--dir", dir]),
      runCli(["get", "stuck", "--dir", dir]),
      runCli(["read", "stuck://x", "--dir", dir]),
    ]);
    const limit = "did not finish within the server's time limit of 200 ms and was stopped";
    expect(call).toMatchObject({
      code: 1,
      stdout: expect.stringContaining(`Tool "stuck" ${limit}`),
    });
    expect(get).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`Prompt "stuck" ${limit}`),
    });
    expect(read).toMatchObject({ code: 1, stderr: expect.stringContaining(limit) });
  });
});
