/**
 * `--http` takes no value: the port and the address have their own options.
 * A word written after it (`--http 3000`, `--http abc`) is read as the
 * directory; the usage error says so, and what to write instead.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, stopAll } from "../cli/helpers/cli.js";
import { createEmptyDir, createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { spawnCli, stopAll as stopServers } from "./helpers.js";

/** Where the commands run: a folder with nothing in it, so no word names a directory. */
let cwd: string;
beforeAll(async () => {
  cwd = await createEmptyDir();
});
afterAll(async () => {
  await stopAll();
  await stopServers();
  await removeServerDirs();
});

const ANY =
  "give the port and the address with --port <n> and --host <host>, as in --http --port 3000";

describe("a word after --http, exit 2 with what to write", () => {
  const cases: Array<[string[], string]> = [
    [
      ["serve", "--http", "abc", "dir"],
      `mcp-dir: --http takes no value, so 'abc' was read as an argument and 'dir' is one too many; ${ANY}. See 'mcp-dir serve --help'`,
    ],
    [
      ["dev", "--http", "abc", "dir"],
      `mcp-dir: --http takes no value, so 'abc' was read as an argument and 'dir' is one too many; ${ANY}. See 'mcp-dir dev --help'`,
    ],
    [
      ["serve", "dir", "--http", "3000"],
      "mcp-dir: --http takes no value, so '3000' was read as an argument and is one too many; for port 3000, write --http --port 3000. See 'mcp-dir serve --help'",
    ],
    [
      ["dev", "--http", "0.0.0.0:8080", "dir"],
      "mcp-dir: --http takes no value, so '0.0.0.0:8080' was read as an argument and 'dir' is one too many; for 0.0.0.0:8080, write --http --host 0.0.0.0 --port 8080. See 'mcp-dir dev --help'",
    ],
    [
      ["serve", "--http", "http://localhost:8080/api", "dir"],
      "mcp-dir: --http takes no value, so 'http://localhost:8080/api' was read as an argument and 'dir' is one too many; for http://localhost:8080/api, write --http --host localhost --port 8080 --path /api. See 'mcp-dir serve --help'",
    ],
    [
      ["serve", "--http", "3000"],
      "mcp-dir: --http takes no value, so '3000' was read as the directory, and there is none of that name; for port 3000, write --http --port 3000. See 'mcp-dir serve --help'",
    ],
    [
      ["serve", "--http", "abc"],
      `mcp-dir: --http takes no value, so 'abc' was read as the directory, and there is none of that name; ${ANY}. See 'mcp-dir serve --help'`,
    ],
    [
      ["dev", "--http", ":8080"],
      "mcp-dir: --http takes no value, so ':8080' was read as the directory, and there is none of that name; for :8080, write --http --port 8080. See 'mcp-dir dev --help'",
    ],
    [
      ["serve", "--http=3000", "dir"],
      "mcp-dir: Option '--http' does not take an argument; for port 3000, write --http --port 3000. See 'mcp-dir serve --help'",
    ],
  ];
  for (const [args, message] of cases) {
    it(`mcp-dir ${args.join(" ")}`, async () => {
      expect(await runCli(args, { cwd })).toEqual({ code: 2, stdout: "", stderr: `${message}\n` });
    });
  }

  it("a directory that is there is served, whatever its name", async () => {
    const parent = await createServerDir({ "3000/prompts/hello.md": "Say hello\n" });
    const running = spawnCli(["serve", "--http", "3000", "--port", "0"], { cwd: parent });
    await running.waitForStderr(/^mcp-dir: serving 3000 0\.0\.0 from 3000 \(.*\) at http:/m);
    running.child.kill("SIGTERM");
    expect(await running.exited).toEqual({ code: null, signal: "SIGTERM" });
  });
});
