/**
 * Vitest's global setup: one temporary folder for the run, in which each
 * worker keeps what the test files it runs share, and example-server's
 * builds are made once for every worker (test/helpers/example-builds.ts),
 * and the programmatic fixture
 * server built into one ES module for the tests that run it as a process
 * (test/server/helpers/fixture.ts). It is removed once every file has run,
 * by this process: a worker is ended by a signal, so it cannot remove what
 * it made itself.
 */
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { TestProject } from "vitest/node";
import { vendoredFiles } from "../../scripts/vendored-files.mjs";
import { startExampleBuilds } from "./example-builds.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's folder for what the files of one worker share (`inject("sharedFolder")`). */
    sharedFolder: string;
    /** test/fixtures/programmatic/server.ts as one ES module, run by plain Node (`inject("fixtureServer")`). */
    fixtureServer: string;
    /** Where example-server's build for each target is asked for, made once per run (see example-builds.ts). */
    exampleBuilds: string;
  }
}

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The fixture and the source it imports as one file, its packages imported from this
 * repository's node_modules: a process that starts in a quarter of the CPU that
 * `node --import tsx` takes to compile some three hundred source files through its hooks.
 */
async function buildFixtureServer(folder: string): Promise<string> {
  const outDir = join(folder, "programmatic");
  await mkdir(outDir);
  await symlink(join(REPO_ROOT, "node_modules"), join(outDir, "node_modules"), "dir");
  await symlink(join(REPO_ROOT, "src/vendor"), join(folder, "vendor"), "dir");
  const outfile = join(outDir, "server.mjs");
  await build({
    entryPoints: [join(REPO_ROOT, "test/fixtures/programmatic/server.ts")],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    plugins: [vendoredFiles],
    logLevel: "warning",
  });
  return outfile;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(join(tmpdir(), "mcp-dir-shared-"));
  project.provide("sharedFolder", folder);
  project.provide("fixtureServer", await buildFixtureServer(folder));
  const exampleBuilds = await startExampleBuilds(folder);
  project.provide("exampleBuilds", exampleBuilds.url);
  project.onTestsRerun(exampleBuilds.forget);
  return async () => {
    await exampleBuilds.close();
    await rm(folder, { recursive: true, force: true });
  };
}
