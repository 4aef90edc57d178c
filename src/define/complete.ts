import type { CompleteResult } from "../protocol/types.js";
import { kind } from "./content-shape.js";
import { isStringArray } from "./string-array.js";

export interface CompletionRequest {
  /** What the user typed so far. */
  value: string;
  /** Values already chosen for the other arguments or variables. */
  arguments: Record<string, string>;
}

/**
 * A fixed list (filtered by prefix for you) or a function that returns the
 * candidates for what was typed so far.
 */
export type Completer =
  | readonly string[]
  | ((request: CompletionRequest) => readonly string[] | Promise<readonly string[]>);

/** The protocol allows at most this many values in one completion result. */
export const MAX_COMPLETION_VALUES = 100;

/**
 * The completion of `request` by `completer`, which `owner` names in an error
 * (`complete.who of prompt "greet"`): a completer that returns anything but an
 * array of strings (a block body that forgot its return) throws, saying so.
 */
export async function complete(
  completer: Completer | undefined,
  request: CompletionRequest,
  owner = "complete",
): Promise<CompleteResult["completion"]> {
  if (completer === undefined) return { values: [], total: 0, hasMore: false };
  const needle = request.value.toLowerCase();
  const candidates: unknown =
    typeof completer === "function"
      ? await completer(request)
      : completer.filter((value) => value.toLowerCase().startsWith(needle));
  if (!isStringArray(candidates)) {
    throw new Error(
      `${owner} returned ${valuesKind(candidates)}; return an array of strings, the values that complete what was typed`,
    );
  }
  return {
    values: candidates.slice(0, MAX_COMPLETION_VALUES),
    total: candidates.length,
    hasMore: candidates.length > MAX_COMPLETION_VALUES,
  };
}

/** What a completer returned that is no array of strings: "nothing", "a number at [0]". */
function valuesKind(values: unknown): string {
  if (!Array.isArray(values)) return kind(values);
  const at = values.findIndex((value) => typeof value !== "string");
  return `${kind(values[at])} at [${at}]`;
}

export function completerKeyProblems(
  complete: Record<string, unknown> | undefined,
  allowed: readonly string[],
  what: string,
): string[] {
  if (complete === undefined) return [];
  return Object.entries(complete).flatMap(([key, completer]) => {
    const problems: string[] = [];
    if (!allowed.includes(key)) {
      problems.push(
        `complete.${key} does not match any ${what} (${allowed.length > 0 ? allowed.join(", ") : "there are none"})`,
      );
    }
    if (typeof completer !== "function" && !isStringArray(completer)) {
      problems.push(`complete.${key} must be an array of strings or a function`);
    }
    return problems;
  });
}
