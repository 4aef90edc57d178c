import { thrownMessage } from "./thrown.js";

/**
 * A value a handler returned, as JSON text; or, for what JSON cannot carry,
 * words for it to follow "returned": "nothing", "a function", "an object that
 * cannot be sent as JSON (…)".
 */
export function jsonText(value: unknown): { json: string } | { unsendable: string } {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    const what = typeof value === "object" ? "an object" : `a ${typeof value}`;
    return { unsendable: `${what} that cannot be sent as JSON (${thrownMessage(error)})` };
  }
  if (json !== undefined) return { json };
  return { unsendable: value === undefined ? "nothing" : `a ${typeof value}` };
}
