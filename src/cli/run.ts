import type { Command } from "./command.js";
import { ownPackage } from "./package-info.js";
import { UsageError } from "./parse-args.js";
import { printError, printOut } from "./stdout.js";

/**
 * Each command by name, in the order help lists them, loaded when asked for:
 * a process loads the code of its one command, not every command's (measured,
 * medians of 25: `--version` 107 -> 94 ms of CPU, `list` 352 -> 316, `serve`
 * of two tools that import mcp-dir 388 -> 358).
 */
const COMMANDS: ReadonlyMap<string, () => Promise<Command>> = new Map([
  ["serve", async () => (await import("./commands/serve.js")).serve],
  ["dev", async () => (await import("./commands/dev.js")).dev],
  ["list", async () => (await import("./commands/list.js")).list],
  ["check", async () => (await import("./commands/check.js")).check],
  ["call", async () => (await import("./commands/call.js")).call],
  ["get", async () => (await import("./commands/get.js")).get],
  ["read", async () => (await import("./commands/read.js")).read],
  ["build", async () => (await import("./commands/build.js")).buildCommand],
  ["init", async () => (await import("./commands/init.js")).init],
]);

function commandNamed(name: string | undefined): Promise<Command> | undefined {
  return name === undefined ? undefined : COMMANDS.get(name)?.();
}

async function mainHelp(): Promise<string> {
  const commands = await Promise.all([...COMMANDS.values()].map((load) => load()));
  const width = Math.max(...commands.map((command) => command.name.length));
  return `mcp-dir ${ownPackage().version}: MCP servers by file-system convention

Usage: mcp-dir <command> [options]

Commands:
${commands.map((command) => `  ${command.name.padEnd(width)}   ${command.summary}`).join("\n")}

Options:
  -h, --help      Show this help ('mcp-dir <command> --help' for a command)
  -v, --version   Print the version`;
}

async function dispatch(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    await printError(await mainHelp());
    return 2;
  }
  if (first === "-h" || first === "--help" || first === "help") {
    const command = await commandNamed(rest[0]);
    await printOut(command ? command.help : await mainHelp());
    return 0;
  }
  if (first === "-v" || first === "--version") {
    await printOut(ownPackage().version);
    return 0;
  }
  const command = await commandNamed(first);
  if (command === undefined) {
    const what = first.startsWith("-") ? "option" : "command";
    throw new UsageError(`Unknown ${what} '${first}'`);
  }
  return command.run(rest);
}

/**
 * Runs `mcp-dir <argv>` and resolves with its exit code (2 for a usage
 * error, 1 for any other failure, each printed on stderr). The process is
 * not ended here: the binary does that (main.ts), a test need not.
 */
export async function runCommandLine(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      await printError(`mcp-dir: ${error.message}`);
      return 2;
    }
    await printError(`mcp-dir: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
