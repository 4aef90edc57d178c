import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEmptyDir, createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { EXAMPLE_SERVER, runCli, stopAll } from "./helpers/cli.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

describe("mcp-dir list", () => {
  it("prints kind, name, source file and description of everything served", async () => {
    const { code, stdout, stderr } = await runCli(["list", "example-server"]);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toBe(
      `KIND      NAME         TASK      SOURCE                  MIDDLEWARE                 DESCRIPTION
tool      calculator             tools/calculator.ts     -                          Performs basic arithmetic on two numbers
tool      chart                  tools/chart.ts          -                          Draws a bar chart of a list of numbers and returns it as a PNG image
tool      poll                   tools/poll.ts           -                          Asks the team a question with a few answers; people vote in the poll's …
tool      poll_vote              tools/poll_vote.ts      -                          Counts one vote for an answer of a poll
tool      primes                 tools/primes.ts         -                          Counts the prime numbers below a limit, reporting progress as it goes
tool      report       optional  tools/report.ts         -                          Writes a report on each team, one section at a time; runs as a task
tool      team_invite            tools/team.ts           -                          Invites a person to a team; asks the user for the team and role when no…
tool      team_lookup            tools/team.ts           -                          Finds team members by name, team or skill; links to their users://{id} …
tool      temperature            tools/temperature.ts    -                          Converts a temperature between Celsius, Fahrenheit and Kelvin
tool      text_stats             tools/text/stats.ts     tools/text/_middleware.ts  Counts the words, sentences and characters of a text and estimates its …
prompt    code_review            prompts/code-review.ts  -                          Asks for a focused review of a piece of code
prompt    standup                prompts/standup.md      -                          Turns rough notes into a short stand-up update
resource  config.json            resources/config.json   -                          file:///config.json
resource  guide.md               resources/guide.md      -                          file:///guide.md
resource  logo.png               resources/logo.png      -                          file:///logo.png
template  users                  resources/users.ts      -                          users://{id}  A team member's profile: name, email, team and skills
view      poll                   views/poll.ts           -                          ui://poll  A poll people vote in, with the votes so far (shows poll, poll_vote)

10 tools, 2 prompts, 3 resources, 1 resource template, 1 view
`,
    );
  });

  it("prints the descriptors clients that show views see, each with its source, as JSON with --json", async () => {
    const { code, stdout } = await runCli(["list", EXAMPLE_SERVER, "--json"]);
    expect(code).toBe(0);
    const listed = JSON.parse(stdout) as {
      name: string;
      version: string;
      tools: { name: string; source: string; inputSchema: unknown }[];
      prompts: { name: string; source: string }[];
      resources: { uri: string; source: string }[];
      resourceTemplates: { uriTemplate: string; source: string }[];
      views: Record<string, unknown>[];
    };
    expect(listed.name).toBe("example-server");
    expect(listed.version).toBe("1.0.0");
    expect(listed.tools.map(({ name, source }) => `${name} ${source}`)).toEqual([
      "calculator tools/calculator.ts",
      "chart tools/chart.ts",
      "poll tools/poll.ts",
      "poll_vote tools/poll_vote.ts",
      "primes tools/primes.ts",
      "report tools/report.ts",
      "team_invite tools/team.ts",
      "team_lookup tools/team.ts",
      "temperature tools/temperature.ts",
      "text_stats tools/text/stats.ts",
    ]);
    expect(listed.tools[0]?.inputSchema).toMatchObject({
      type: "object",
      required: ["operation", "a", "b"],
    });
    expect(listed.prompts.map(({ name, source }) => `${name} ${source}`)).toEqual([
      "code_review prompts/code-review.ts",
      "standup prompts/standup.md",
    ]);
    expect(listed.resources.map(({ uri, source }) => `${uri} ${source}`)).toEqual([
      "file:///config.json resources/config.json",
      "file:///guide.md resources/guide.md",
      "file:///logo.png resources/logo.png",
    ]);
    expect(listed.resourceTemplates).toEqual([
      {
        uriTemplate: "users://{id}",
        name: "users",
        title: "Team member",
        description: "A team member's profile: name, email, team and skills",
        mimeType: "application/json",
        source: "resources/users.ts",
      },
    ]);
    // A view apart from the resources, with the tools it shows; each tool linked to its view.
    expect(listed.views).toEqual([
      {
        uri: "ui://poll",
        name: "poll",
        title: "Poll",
        description: "A poll people vote in, with the votes so far",
        mimeType: "text/html;profile=mcp-app",
        _meta: { ui: { prefersBorder: true } },
        source: "views/poll.ts",
        tools: ["poll", "poll_vote"],
      },
    ]);
    const meta = (name: string) =>
      (listed.tools.find((tool) => tool.name === name) as { _meta?: unknown })._meta;
    expect(meta("poll")).toEqual({ ui: { resourceUri: "ui://poll" } });
    expect(meta("poll_vote")).toEqual({ ui: { resourceUri: "ui://poll", visibility: ["app"] } });
  });

  it("says which tools each view shows, and warns of links that lead nowhere", async () => {
    const dir = await createServerDir({
      "tools/weather.ts": 'export default { description: "Weather", handler: () => "sunny" };\n',
      "tools/refresh.ts":
        'export default { description: "Refresh", _meta: { ui: { resourceUri: "ui://wether" } }, handler: () => "ok" };\n',
      "views/weather.html": "<p>weather</p>\n",
      "views/orphan.html": "---\ndescription: Nobody's\n---\n<p>alone</p>\n",
    });
    const { code, stdout, stderr } = await runCli(["list", dir]);
    expect(code).toBe(0);
    expect(stderr).toBe(
      `warning: tools/refresh.ts: Tool "refresh" names the view ui://wether in _meta.ui.resourceUri, which nothing serves; the views are ui://orphan, ui://weather
warning: views/orphan.html: the view ui://orphan shows no tool: name a tool "orphan" to link it, or name the view in a tool's _meta.ui.resourceUri
`,
    );
    expect(stdout).toBe(`KIND  NAME     SOURCE              DESCRIPTION
tool  refresh  tools/refresh.ts    Refresh
tool  weather  tools/weather.ts    Weather
view  orphan   views/orphan.html   ui://orphan  Nobody's (shows no tool)
view  weather  views/weather.html  ui://weather  (shows weather)

2 tools, 0 prompts, 0 resources, 2 views
`);
  });

  it("prints nothing on stdout and every problem on stderr when a file is broken, exit 1", async () => {
    const dir = await createServerDir({
      "tools/ok.ts": 'export default { description: "Fine", handler: () => 1 };\n',
      "tools/bad.ts": "export default { handler: () => 1 };\n",
      "tools/helper.ts": "export const x = 1;\n",
    });
    const { code, stdout, stderr } = await runCli(["list", dir]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      `warning: tools/helper.ts: exports no definition, so it serves nothing; export a tool (as default or named), or rename the file to "_helper.ts" if it is a helper
error: tools/bad.ts (export "default"): Tool "bad" is invalid:
  - description is missing: clients show it to the model, so say what the tool does
mcp-dir: 1 problem in ${dir}; fix it and run again
`,
    );
  });

  it("warns when the directory has no definition folder, and fails when it does not exist", async () => {
    const empty = await createEmptyDir();
    const listed = await runCli(["list", empty]);
    expect(listed).toEqual({
      code: 0,
      stdout: "KIND  NAME  SOURCE  DESCRIPTION\n\n0 tools, 0 prompts, 0 resources\n",
      stderr: `warning: ${empty} has no tools/, prompts/, resources/ or views/ folder, so there is nothing to serve\n`,
    });
    const missing = join(empty, "nope");
    expect(await runCli(["list", missing])).toEqual({
      code: 1,
      stdout: "",
      stderr: `mcp-dir: ${missing} is not a directory\n`,
    });
  });
});
