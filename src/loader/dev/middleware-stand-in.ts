import { defineMiddleware } from "../../define/middleware.js";
import type { SourceEntry } from "../../registry/definition.js";
import { folderOfSource } from "../../registry/served.js";
import type { LoadProblem } from "../problems.js";

/**
 * What serves in place of a `_middleware` file that failed to load and has no
 * good version to keep: a middleware that refuses every call it wraps. A
 * folder's policy (a check, its scopes) is never skipped because its file is
 * broken; what it wraps stays listed and answers with the reason until the
 * file loads.
 */
export function middlewareStandIn(
  file: string,
  problems: readonly LoadProblem[],
): readonly SourceEntry[] {
  const folder = folderOfSource(file);
  const where = folder === "" ? "in the server directory" : `under ${folder}/`;
  const reason = problems.map(({ message }) => message).join("; ");
  const message = `${file} did not load, so nothing ${where} runs until it does: ${reason}; fix it and save`;
  const refuse = () => {
    throw new Error(message);
  };
  return [{ definition: defineMiddleware(refuse) }];
}
