import { readFileSync } from "node:fs";

interface PackageJson {
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

let cached: PackageJson | undefined;

/** mcp-dir's own package.json (two levels up from both src/cli and dist/cli). */
export function ownPackage(): PackageJson {
  cached ??= JSON.parse(
    readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
  ) as PackageJson;
  return cached;
}
