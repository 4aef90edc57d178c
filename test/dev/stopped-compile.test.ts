import { execFile } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createServerDir, REPO_ROOT, removeServerDirs } from "../loader/helpers/server-dir.js";

afterAll(removeServerDirs);

const dist = (path: string) => JSON.stringify(pathToFileURL(join(REPO_ROOT, "dist", path)).href);

/**
 * Loads one file so tsx and esbuild are warm, then makes compiles hang: a
 * file whose first compile hangs (the compiler process is stopped with
 * SIGSTOP, so it never answers, however fast the machine), loaded again on a
 * fresh compiler; one whose every compile hangs (each transform asked for
 * never settles: a process stopped once asked would have answered first,
 * some of the time); then one more on a working compiler. Prints how each
 * load went; the process must then end by itself.
 */
const SCRIPT = `
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createImporter } from ${dist("loader/index.js")};
import { describeImportError } from ${dist("loader/import-error.js")};
import { speculativeTransforms } from ${dist("loader/speculative-transforms.js")};

/** This process's esbuild children, by /proc (pid (comm) state ppid ...). */
function compilers() {
  return readdirSync("/proc").filter((entry) => /^\\d+$/.test(entry)).filter((pid) => {
    try {
      const stat = readFileSync("/proc/" + pid + "/stat", "utf8");
      const [, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return stat.includes("(esbuild)") && ppid === String(process.pid);
    } catch {
      return false;
    }
  }).map(Number);
}
const frozen = new Set();
const freeze = () => {
  for (const pid of compilers()) {
    process.kill(pid, "SIGSTOP");
    frozen.add(pid);
  }
};

const dir = process.argv[1];
const modules = createImporter(dir);
const speculation = speculativeTransforms();
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
freeze();
await load("hangs-once.ts", 200);
const transform = speculation.transform;
speculation.transform = () => new Promise(() => {});
await load("hangs-always.ts", 200);
speculation.transform = transform;
await load("next.ts", 30000);
for (const pid of frozen) process.kill(pid, "SIGKILL");
outcomes.frozen = frozen.size;
console.log(JSON.stringify(outcomes));
`;

describe("a load stopped while tsx compiles the file", () => {
  it("gets one more try on a fresh compiler, is not blamed on the file's code when that hangs too, and leaves the compiler working for the next file", async () => {
    const tool = (name: string) => `export default { description: "${name}" };\n`;
    const dir = await createServerDir({
      "tools/warm.ts": tool("Warm"),
      "tools/hangs-once.ts": tool("Hangs once"),
      "tools/hangs-always.ts": tool("Hangs always"),
      "tools/next.ts": tool("Next"),
    });
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--input-type=module", "-e", SCRIPT, dir],
      { env: { ...process.env, TSX_DISABLE_CACHE: "1" } },
    );
    expect(JSON.parse(stdout)).toEqual({
      "warm.ts": "Warm",
      "hangs-once.ts": "Hangs once",
      "hangs-always.ts":
        "did not finish loading within 200 ms and was stopped while tsx compiled it, before any of its code ran: the machine may be busy, or the file very large; raise the limit with --load-timeout <ms> (loadTimeoutMs in code)",
      "next.ts": "Next",
      // The first compiler (the one started again for hangs-once.ts was stopped for hangs-always.ts).
      frozen: 1,
    });
  });

  it("stopped inside esbuild's synchronous worker, leaves author code no GOGC of esbuild's", async () => {
    // The worker is started (as after CompilerNeeded), so the next compile under a
    // timer is its transformSync, which esbuild-gc.ts gives GOGC for as long as it runs.
    const steps = SCRIPT.slice(0, SCRIPT.indexOf('await load("warm.ts"')).concat(`
await load("warm.ts", 30000);
speculation.startCompiler();
freeze();
await load("hangs-once.ts", 200);
await load("next.ts", 30000);
for (const pid of frozen) process.kill(pid, "SIGKILL");
outcomes.gogc = process.env.GOGC ?? "unset";
console.log(JSON.stringify(outcomes));
`);
    const tool = (name: string) => `export default { description: "${name}" };\n`;
    const dir = await createServerDir({
      "tools/warm.ts": tool("Warm"),
      "tools/hangs-once.ts": tool("Hangs once"),
      "tools/next.ts": tool("Next"),
    });
    const env: NodeJS.ProcessEnv = { ...process.env, TSX_DISABLE_CACHE: "1" };
    delete env.GOGC;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--input-type=module", "-e", steps, dir],
      { env },
    );
    expect(JSON.parse(stdout)).toEqual({
      "warm.ts": "Warm",
      "hangs-once.ts": "Hangs once",
      "next.ts": "Next",
      gogc: "unset",
    });
  });

  it("never starts the compiler under a load timer: a stop there would stop Node setting up esbuild's thread", async () => {
    // A compile asked for under a timer while esbuild's worker is stopped is
    // made by esbuild's service instead (the loader waits for it outside the
    // timer and loads the file again); when that fails, the worker is to be
    // started outside the timer, and reports the error itself. One asked for
    // outside a timer starts the worker; then one under a timer runs on it.
    const script = `
import { createRequire } from "node:module";
import { CompilerNeeded, TransformNeeded, speculativeTransforms } from ${dist("loader/speculative-transforms.js")};
const speculation = speculativeTransforms();
const esbuild = createRequire(${dist("loader/index.js")})("esbuild");
const compile = (timed, code = "export const x: number = 1;") => {
  speculation.timed = timed;
  try {
    return esbuild.transformSync(code, { loader: "ts", sourcefile: "x.ts" }).code.trim();
  } catch (error) {
    if (error instanceof CompilerNeeded) return "refused: the compiler is needed";
    if (error instanceof TransformNeeded) return error;
    return error.message.split("\\n")[0];
  } finally {
    speculation.timed = false;
  }
};
const outcomes = [compile(false), compile(true)];
await esbuild.stop();
const needed = compile(true);
outcomes.push(needed instanceof TransformNeeded ? "transformed by the service" : needed);
await needed.transformed;
outcomes.push(compile(true));
const broken = compile(true, "export const x = ;");
outcomes.push(broken instanceof TransformNeeded ? "transformed by the service" : broken);
await broken.transformed;
outcomes.push(compile(true, "export const x = ;"));
speculation.startCompiler();
outcomes.push(compile(true, "export const x = ;"), compile(true));
console.log(JSON.stringify(outcomes));
`;
    const { stdout } = await promisify(execFile)(process.execPath, [
      "--input-type=module",
      "-e",
      script,
    ]);
    expect(JSON.parse(stdout)).toEqual([
      "export const x = 1;",
      "export const x = 1;",
      "transformed by the service",
      "export const x = 1;",
      "transformed by the service",
      "refused: the compiler is needed",
      "Transform failed with 1 error:",
      "export const x = 1;",
    ]);
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
