import { basename, dirname, relative, sep } from "node:path";
import { OWN_ROOT, ownPackage } from "./package-info.js";

export interface McpDirDependency {
  /** What package.json gets for "mcp-dir". */
  spec: string;
  /** Whether that is this folder (`file:`), not a version range. */
  linked: boolean;
}

/**
 * The "mcp-dir" dependency of a server directory at `projectRoot`. A copy a
 * package manager installed sits in a folder named node_modules (npm, pnpm,
 * yarn, npx, a global install) and came from the registry, so its version's
 * range installs. Any other copy, such as a git clone (or `npm link`, whose
 * modules resolve to the clone), may be a version the registry lacks, so the
 * project depends on this folder itself, by a path from the project, as
 * `npm install <folder>` writes it.
 */
export function mcpDirDependency(
  projectRoot: string,
  ownRoot = OWN_ROOT,
  version = ownPackage().version,
): McpDirDependency {
  if (basename(dirname(ownRoot)) === "node_modules") return { spec: `^${version}`, linked: false };
  const path = relative(projectRoot, ownRoot).split(sep).join("/");
  return { spec: `file:${path === "" ? "." : path}`, linked: true };
}
