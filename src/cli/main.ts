#!/usr/bin/env node
import type { Command } from "./command.js";
import { buildCommand } from "./commands/build.js";
import { call } from "./commands/call.js";
import { check } from "./commands/check.js";
import { dev } from "./commands/dev.js";
import { get } from "./commands/get.js";
import { init } from "./commands/init.js";
import { list } from "./commands/list.js";
import { read } from "./commands/read.js";
import { serve } from "./commands/serve.js";
import { exitProcess } from "./exit-process.js";
import { ownPackage } from "./package-info.js";
import { UsageError } from "./parse-args.js";
import { printError, printOut } from "./stdout.js";

const COMMANDS: readonly Command[] = [serve, dev, list, check, call, get, read, buildCommand, init];

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return `mcp-dir ${ownPackage().version}: MCP servers by file-system convention

Usage: mcp-dir <command> [options]

Commands:
${COMMANDS.map((command) => `  ${command.name.padEnd(width)}   ${command.summary}`).join("\n")}

Options:
  -h, --help      Show this help ('mcp-dir <command> --help' for a command)
  -v, --version   Print the version`;
}

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    await printError(mainHelp());
    return 2;
  }
  if (first === "-h" || first === "--help" || first === "help") {
    const command = COMMANDS.find((c) => c.name === rest[0]);
    await printOut(command ? command.help : mainHelp());
    return 0;
  }
  if (first === "-v" || first === "--version") {
    await printOut(ownPackage().version);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === first);
  if (command === undefined) {
    const what = first.startsWith("-") ? "option" : "command";
    throw new UsageError(`Unknown ${what} '${first}'`);
  }
  return command.run(rest);
}

// Exit explicitly: author code may hold timers or sockets that would keep the process alive.
main(process.argv.slice(2)).then(
  (code) => exitProcess(code),
  async (error: unknown) => {
    if (error instanceof UsageError) {
      await printError(`mcp-dir: ${error.message}`);
      exitProcess(2);
    }
    await printError(`mcp-dir: ${error instanceof Error ? error.message : String(error)}`);
    exitProcess(1);
  },
);
