import { UsageError } from "./parse-args.js";

/**
 * A command's JSON object argument (`'{"a": 1}'`); anything else is a usage
 * error of `command`.
 */
export function parseJsonObject(raw: string, command: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new UsageError(
      `The arguments are not valid JSON: pass an object such as '{"a": 1}'`,
      command,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`The arguments must be a JSON object, such as '{"a": 1}'`, command);
  }
  return value as Record<string, unknown>;
}
