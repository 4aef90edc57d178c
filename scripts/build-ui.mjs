/**
 * Builds the page of `mcp-dir dev --ui` into dist/dev-ui/page/: its script
 * (with the official MCP client and the MCP Apps host bridge bundled in, so
 * nothing is fetched at run time and users install nothing more), the views'
 * sandbox proxy, and its style. Run by `npm run build`, after tsc.
 */
import { copyFile, mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const source = fileURLToPath(new URL("../src/dev-ui/page/", import.meta.url));
const out = fileURLToPath(new URL("../dist/dev-ui/page/", import.meta.url));

await mkdir(out, { recursive: true });
await build({
  entryPoints: { page: `${source}main.ts`, sandbox: `${source}sandbox.ts` },
  outdir: out,
  bundle: true,
  minify: true,
  platform: "browser",
  format: "esm",
  target: "es2022",
  legalComments: "none",
  logLevel: "warning",
});
await copyFile(`${source}page.css`, `${out}page.css`);
