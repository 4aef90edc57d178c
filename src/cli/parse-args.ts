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

/** A positional written right after an option that takes no value (`--http 3000`). */
export interface WordAfterFlag {
  /** The option, without its dashes. */
  option: string;
  /** Which positional the word became. */
  index: number;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  help: boolean;
  /** The first positional written right after a `--flag` that takes no value, if any. */
  afterFlag?: WordAfterFlag;
}

/**
 * For options that take no value but may be written with one (`--http 3000`):
 * what to write instead, for the word given.
 */
export type ValueHints = Readonly<Record<string, (word: string) => string>>;

type Options = NonNullable<ParseArgsConfig["options"]>;
type Token = NonNullable<ReturnType<typeof parseArgs>["tokens"]>[number];

/**
 * Strict parsing (unknown options are errors) with `-h/--help` on every
 * command and a hint that names the command's help. A word given to an
 * option of `hints` (`--http=3000`, or `--http 3000` that leaves an argument
 * too many) is said to be that, with what to write instead.
 */
export function parseCommandArgs(
  command: string,
  argv: string[],
  options: Options,
  maxPositionals: number,
  { program, hints = {} }: { program?: string; hints?: ValueHints } = {},
): ParsedArgs {
  const all: Options = { ...options, help: { type: "boolean", short: "h" } };
  let parsed: { values: Record<string, unknown>; positionals: string[]; tokens?: Token[] };
  try {
    parsed = parseArgs({
      args: argv,
      options: all,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    // Node's messages go on with advice about "--"; the first sentence is the point.
    const message = (error as Error).message.split(/\.\s/)[0]?.replace(/\.$/, "") ?? "";
    throw new UsageError(
      dashedValue(message, argv) ?? message + inlineValueHint(message, argv, hints),
      command,
      program,
    );
  }
  const help = parsed.values.help === true;
  const afterFlag = wordAfterFlag(parsed.tokens ?? [], all);
  const extra = parsed.positionals[maxPositionals];
  if (extra !== undefined && !help) {
    const misread = afterFlag && afterFlag.index <= maxPositionals ? afterFlag : undefined;
    const hint = misread && hints[misread.option];
    const message =
      misread && hint
        ? misreadWord(misread, parsed.positionals, maxPositionals, hint)
        : `Unexpected argument '${extra}'`;
    throw new UsageError(message, command, program);
  }
  return {
    values: parsed.values as ParsedArgs["values"],
    positionals: parsed.positionals,
    help,
    ...(afterFlag && { afterFlag }),
  };
}

/** The first positional right after a `--flag` of no value, before any `--`. */
function wordAfterFlag(tokens: readonly Token[], options: Options): WordAfterFlag | undefined {
  let index = 0;
  let previous: Token | undefined;
  for (const token of tokens) {
    if (token.kind === "option-terminator") return undefined;
    if (token.kind === "positional") {
      if (
        previous?.kind === "option" &&
        previous.index === token.index - 1 &&
        previous.rawName.startsWith("--") &&
        options[previous.name]?.type === "boolean"
      ) {
        return { option: previous.name, index };
      }
      index++;
    }
    previous = token;
  }
  return undefined;
}

/** `--http takes no value, so 'abc' was read as an argument and 'dir' is one too many; <hint>` */
function misreadWord(
  { option, index }: WordAfterFlag,
  positionals: readonly string[],
  maxPositionals: number,
  hint: (word: string) => string,
): string {
  const word = positionals[index] as string;
  const tooMany =
    index === maxPositionals
      ? "is one too many"
      : `'${positionals[maxPositionals]}' is one too many`;
  return `--${option} takes no value, so '${word}' was read as an argument and ${tooMany}; ${hint(word)}`;
}

/** For `--http=3000`: what to write instead, when the option has a hint. */
function inlineValueHint(message: string, argv: readonly string[], hints: ValueHints): string {
  const option = /^Option '--([^']+)' does not take an argument$/.exec(message)?.[1];
  const hint = option === undefined ? undefined : hints[option];
  if (option === undefined || hint === undefined) return "";
  const given = argv.find((arg) => arg.startsWith(`--${option}=`));
  return given === undefined ? "" : `; ${hint(given.slice(option.length + 3))}`;
}

/**
 * Node refuses `--port -1` as "argument is ambiguous" (the value looks like an
 * option) and tells how to write it only after the first sentence, which is
 * all a usage error keeps: say what was given and how to write it.
 */
function dashedValue(message: string, argv: string[]): string | undefined {
  const flag = /^Option '(--[^']+)' argument is ambiguous$/.exec(message)?.[1];
  const value = flag === undefined ? undefined : argv[argv.indexOf(flag) + 1];
  if (value === undefined) return undefined;
  return `Option '${flag}' was given '${value}', which parses as an option: write a value that starts with a dash as ${flag}=${value}`;
}
