import { execFile } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createServerDir, REPO_ROOT, removeServerDirs } from "../loader/helpers/server-dir.js";

afterAll(removeServerDirs);

const dist = (path: string) => JSON.stringify(pathToFileURL(join(REPO_ROOT, "dist", path)).href);

/**
 * Loads one file so tsx and esbuild are warm, stops esbuild's compiler (it
 * starts again on the next compile, which then waits some 100 ms for it), loads
 * a small file with a 20 ms limit, then another with a generous one, and prints
 * how each load went.
 */
const SCRIPT = `
import { createRequire } from "node:module";
import { join } from "node:path";
import { createImporter } from ${dist("loader/index.js")};
import { describeImportError } from ${dist("loader/import-error.js")};

const dir = process.argv[1];
const modules = createImporter(dir);
const outcomes = {};
const load = async (name, limit) => {
  const file = join(dir, "tools", name);
  modules.loadTimeoutMs = limit;
  try {
    outcomes[name] = (await modules.import(file)).default.description;
  } catch (error) {
    outcomes[name] = await describeImportError(error, dir, file);
  }
};
await load("warm.ts", 30000);
await createRequire(${dist("loader/index.js")})("esbuild").stop();
await load("stopped.ts", 20);
await load("next.ts", 30000);
console.log(JSON.stringify(outcomes));
`;

describe("a load stopped while tsx compiles the file", () => {
  it("is not blamed on the file's code, and leaves the compiler working for the next file", async () => {
    const dir = await createServerDir({
      "tools/warm.ts": 'export default { description: "Warm" };\n',
      "tools/stopped.ts": 'export default { description: "Stopped" };\n',
      "tools/next.ts": 'export default { description: "Next" };\n',
    });
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--input-type=module", "-e", SCRIPT, dir],
      { env: { ...process.env, TSX_DISABLE_CACHE: "1" } },
    );
    expect(JSON.parse(stdout)).toEqual({
      "warm.ts": "Warm",
      "stopped.ts":
        "did not finish loading within 20 ms and was stopped while tsx compiled it, before any of its code ran: the machine may be busy, or the file very large; raise the limit with --load-timeout <ms>",
      "next.ts": "Next",
    });
  });

  it("is told apart from a compile that failed: esbuild refusing a file is no stop", async () => {
    const script = `
import { createRequire } from "node:module";
import { speculativeTransforms } from ${dist("loader/speculative-transforms.js")};
const speculation = speculativeTransforms();
const esbuild = createRequire(${dist("loader/index.js")})("esbuild");
let refused = false;
try {
  esbuild.transformSync("export const x = ;", { loader: "ts", sourcefile: "broken.ts" });
} catch {
  refused = true;
}
console.log(JSON.stringify({ refused, stopped: speculation.resetIfStoppedInTransform() }));
`;
    const { stdout } = await promisify(execFile)(process.execPath, [
      "--input-type=module",
      "-e",
      script,
    ]);
    expect(JSON.parse(stdout)).toEqual({ refused: true, stopped: false });
  });
});
