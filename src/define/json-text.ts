import { lostValue } from "./lost-value.js";
import { thrownMessage } from "./thrown.js";

/**
 * A value a handler returned, as JSON text; or, for what JSON cannot carry,
 * words for it to follow "returned": "nothing", "a function", "an object that
 * cannot be sent as JSON (…)", "a Map, which JSON would send as {} …", with,
 * for what JSON would send as {} (`lostValue`), what to return instead.
 */
export function jsonText(
  value: unknown,
): { json: string } | { unsendable: string; instead?: string } {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    const what = typeof value === "object" ? "an object" : `a ${typeof value}`;
    return { unsendable: `${what} that cannot be sent as JSON (${thrownMessage(error)})` };
  }
  if (json === undefined) {
    return { unsendable: value === undefined ? "nothing" : `a ${typeof value}` };
  }
  // What JSON empties is written {}: only a text with one can have lost one.
  return (json.includes("{}") && lostValue(value)) || { json };
}
