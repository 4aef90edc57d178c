import { type ParseArgsConfig, parseArgs } from "node:util";

/**
 * A mistake in how the command was called; main prints it with a hint and
 * exits 2. The hint names the command's help: `mcp-dir serve --help`, or a
 * built bundle's own (`node server.mjs --help`, its program with no command).
 */
export class UsageError extends Error {
  constructor(message: string, command?: string, program = "mcp-dir") {
    const help = [program, command, "--help"].filter(Boolean).join(" ");
    super(`${message}. See '${help}'`);
    this.name = "UsageError";
  }
}

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  help: boolean;
}

/**
 * Strict parsing (unknown options are errors) with `-h/--help` on every
 * command and a hint that names the command's help.
 */
export function parseCommandArgs(
  command: string,
  argv: string[],
  options: NonNullable<ParseArgsConfig["options"]>,
  maxPositionals: number,
  program?: string,
): ParsedArgs {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // Node's messages go on with advice about "--"; the first sentence is the point.
    const message = (error as Error).message.split(/\.\s/)[0]?.replace(/\.$/, "") ?? "";
    throw new UsageError(message, command, program);
  }
  const help = parsed.values.help === true;
  const extra = parsed.positionals[maxPositionals];
  if (extra !== undefined && !help) {
    throw new UsageError(`Unexpected argument '${extra}'`, command, program);
  }
  return {
    values: parsed.values as ParsedArgs["values"],
    positionals: parsed.positionals,
    help,
  };
}
