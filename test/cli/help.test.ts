import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../loader/helpers/server-dir.js";
import { runCli, stopAll } from "./helpers/cli.js";

afterAll(stopAll);

const COMMANDS = ["serve", "dev", "list", "check", "call", "get", "read", "init"];
const VERSION = (
  JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
    version: string;
  }
).version;

const FIRST_LINES: Record<string, string> = {
  serve: "Usage: mcp-dir serve [dir] [options]",
  dev: "Usage: mcp-dir dev [dir] [options]",
  list: "Usage: mcp-dir list [dir] [--json]",
  check: "Usage: mcp-dir check [dir] [--typecheck]",
  call: "Usage: mcp-dir call <tool> [json-arguments] [--dir dir] [--json]",
  get: "Usage: mcp-dir get <prompt> [json-arguments] [--dir dir] [--json]",
  read: "Usage: mcp-dir read <uri> [--dir dir] [--json]",
  init: "Usage: mcp-dir init [dir] [--view]",
};

let mainHelp: ReturnType<typeof runCli> | undefined;
/** `mcp-dir --help`, run once for the two cases that read it. */
const help = () => {
  mainHelp ??= runCli(["--help"]);
  return mainHelp;
};

describe("mcp-dir --help and --version", () => {
  it("lists every command with a one-line summary", async () => {
    const { code, stdout, stderr } = await help();
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toBe(`mcp-dir ${VERSION}: MCP servers by file-system convention

Usage: mcp-dir <command> [options]

Commands:
  serve   Serve a server directory over stdio or Streamable HTTP
  dev     Serve a server directory and reload every saved file in place
  list    List the tools, prompts and resources of a server directory
  check   Validate a server directory (for CI): every problem, exit 0 or 1
  call    Run one tool in-process and print its result
  get     Get one prompt in-process and print its messages
  read    Read one resource in-process and print its contents
  build   Bundle a server directory into one deployable module
  init    Create a server directory with a tool, a prompt and a resource

Options:
  -h, --help      Show this help ('mcp-dir <command> --help' for a command)
  -v, --version   Print the version
`);
  });

  it("has a row in the README's CLI table for each command it lists", async () => {
    const { stdout } = await help();
    const listed = stdout
      .split("Commands:\n")[1]
      ?.split("\n\n")[0]
      ?.split("\n")
      .map((line) => line.trim().split(" ")[0]);
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    const rows = [...readme.matchAll(/^\| `mcp-dir (\w+)/gm)].map(([, command]) => command);
    expect(listed).toContain("build");
    expect(rows).toEqual(expect.arrayContaining(listed ?? []));
  });

  it("prints the help on stderr and exits 2 when no command is given", async () => {
    const { code, stdout, stderr } = await runCli([]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.split("\n")[2]).toBe("Usage: mcp-dir <command> [options]");
  });

  it("prints the version of package.json", async () => {
    const results = await Promise.all([runCli(["--version"]), runCli(["-v"])]);
    expect(results).toEqual([
      { code: 0, stdout: `${VERSION}\n`, stderr: "" },
      { code: 0, stdout: `${VERSION}\n`, stderr: "" },
    ]);
  });

  it.each(COMMANDS)("has --help and -h for %s, on stdout, exit 0", async (command) => {
    const [long, short, viaHelp] = await Promise.all([
      runCli([command, "--help"]),
      runCli([command, "-h"]),
      runCli(["help", command]),
    ]);
    expect(long.code).toBe(0);
    expect(long.stderr).toBe("");
    expect(long.stdout.split("\n")[0]).toBe(FIRST_LINES[command]);
    expect(long.stdout).toContain("-h, --help   ");
    expect(short).toEqual(long);
    expect(viaHelp).toEqual(long);
  });
});

describe("mcp-dir build --help", () => {
  it("says a bundle run as a program keeps 2025 sessions, as its README row does", async () => {
    const { code, stdout } = await runCli(["build", "--help"]);
    expect(code).toBe(0);
    const text = stdout.replace(/\s+/g, " ");
    expect(text).toContain("over HTTP it keeps 2025 sessions, as serve does");
    expect(text).not.toContain("over HTTP on Bun and Deno, the server is stateless");
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    for (const runtime of ["node:http", "`Bun.serve`", "`Deno.serve`"]) {
      expect(readme).toContain(`| ${runtime}, sessions kept`);
    }
  });
});

describe("serve --help and dev --help", () => {
  it.each(["serve", "dev"])(
    "%s gives each flag of the README's HTTP table as it writes it",
    async (command) => {
      const { stdout } = await runCli([command, "--help"]);
      const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
      const flags = [...readme.matchAll(/^\| `(--[a-z-]+(?: <[a-z]+>)?)`/gm)].map(
        ([, flag]) => flag,
      );
      expect(flags).toContain("--auth-audience <id>");
      const helped = stdout.split("\n").map((line) => line.trim().split(/\s{2,}/)[0]);
      expect(helped).toEqual(expect.arrayContaining(flags));
    },
  );
});

describe("mistakes in the command line", () => {
  it.each(COMMANDS)("rejects an unknown option of %s with a hint, exit 2", async (command) => {
    const { code, stdout, stderr } = await runCli([command, "--frobnicate"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      `mcp-dir: Unknown option '--frobnicate'. See 'mcp-dir ${command} --help'\n`,
    );
  });

  it("rejects an unknown command, an unknown top-level option, extra arguments and missing values", async () => {
    const cases: [string[], string][] = [
      [["frobnicate"], "mcp-dir: Unknown command 'frobnicate'. See 'mcp-dir --help'\n"],
      [["--frobnicate"], "mcp-dir: Unknown option '--frobnicate'. See 'mcp-dir --help'\n"],
      [["serve", "a", "b"], "mcp-dir: Unexpected argument 'b'. See 'mcp-dir serve --help'\n"],
      [
        ["call", "echo", "--dir"],
        "mcp-dir: Option '--dir <value>' argument missing. See 'mcp-dir call --help'\n",
      ],
      [
        ["list", "--json=yes"],
        "mcp-dir: Option '--json' does not take an argument. See 'mcp-dir list --help'\n",
      ],
      [["call"], "mcp-dir: Missing the name of the tool to call. See 'mcp-dir call --help'\n"],
      [
        ["serve", "--http", "--port", "-1"],
        "mcp-dir: Option '--port' was given '-1', which parses as an option: write a value that starts with a dash as --port=-1. See 'mcp-dir serve --help'\n",
      ],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args)));
    expect(results).toEqual(cases.map(([, message]) => ({ code: 2, stdout: "", stderr: message })));
  });
});
