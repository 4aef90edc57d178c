import { readFileSync } from "node:fs";
import { dirname, sep } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder mcp-dir's own code runs from, `dist/` when built or `src/` from
 * source, with a trailing separator: never author code, even where a server
 * directory holds it outside node_modules (an npm workspace with mcp-dir as one
 * of its packages, or mcp-dir's own repository). Undefined where this module
 * is not in mcp-dir's package (bundled into an application).
 */
export function ownCodeFolder(): string | undefined {
  // Two levels below the package's root: src/loader/, dist/loader/ or dist/chunks/.
  const code = dirname(dirname(fileURLToPath(import.meta.url)));
  try {
    const manifest = JSON.parse(readFileSync(`${dirname(code)}${sep}package.json`, "utf8")) as {
      name?: unknown;
    };
    return manifest.name === "mcp-dir" ? code + sep : undefined;
  } catch {
    return undefined;
  }
}
