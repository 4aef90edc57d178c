import type { ConfigCheck } from "../loader/dev/config-check.js";
import { formatProblem, formatWarning } from "../loader/problems.js";

/**
 * What `mcp-dir dev` says of a saved config file, which takes a restart: what
 * would stop that restart from taking it (each problem with the file), or
 * that it would take it. The running server keeps its config either way.
 */
export function configChangeLines(check: ConfigCheck): string[] {
  const lines = check.warnings.map((warning) => `warning: ${formatWarning(warning)}`);
  if (check.problems.length > 0) {
    lines.push(...check.problems.map((problem) => `error: ${formatProblem(problem)}`));
    lines.push(
      `  (${check.file} is not applied: the server keeps the config it started with; fix the file, then restart mcp-dir dev)`,
    );
  } else if (check.file === undefined) {
    lines.push(
      `mcp-dir dev: ${check.saved.join(", ")} was removed; restart mcp-dir dev to serve without it`,
    );
  } else {
    lines.push(
      `mcp-dir dev: ${check.file} changed and has no problems; restart mcp-dir dev to apply it`,
    );
  }
  return lines;
}
