import { type ParsedArgs, UsageError } from "./parse-args.js";

/** `--load-timeout <ms>`, for every command that loads a server directory. */
export const LOAD_TIMEOUT_OPTION = { "load-timeout": { type: "string" } } as const;

export const LOAD_TIMEOUT_HELP =
  "  --load-timeout <ms>  Stop and report a file that takes longer to load (default 5000)";

/** The limit given on the command line, in milliseconds, if any. */
export function loadTimeoutFlag(
  values: ParsedArgs["values"],
  command: string,
): { loadTimeoutMs?: number } {
  const given = values["load-timeout"];
  if (typeof given !== "string") return {};
  const ms = Number(given);
  if (!/^\d+$/.test(given) || ms < 1) {
    throw new UsageError(
      `--load-timeout must be a positive whole number of milliseconds, got '${given}'`,
      command,
    );
  }
  return { loadTimeoutMs: ms };
}
