import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

interface PackageJson {
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** mcp-dir's own folder (two levels up from both src/cli and dist/cli). */
export const OWN_ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

let cached: PackageJson | undefined;

/** mcp-dir's own package.json. */
export function ownPackage(): PackageJson {
  cached ??= JSON.parse(readFileSync(join(OWN_ROOT, "package.json"), "utf8")) as PackageJson;
  return cached;
}
