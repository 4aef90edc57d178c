/** One `mcp-dir <name>` command; `run` returns the exit code. */
export interface Command {
  readonly name: string;
  /** One line for `mcp-dir --help`. */
  readonly summary: string;
  /** The whole `mcp-dir <name> --help` text. */
  readonly help: string;
  run(argv: string[]): Promise<number>;
}
