/**
 * Every way a server directory is served over HTTP, started for real: the
 * CLI's `serve --http`, and `mcp-dir build`'s bundle run by Node, Bun and Deno
 * (as a program, and under `deno serve`) and by Cloudflare's workerd through
 * Miniflare. Each is given its settings the way its runtime gives them (the
 * environment, or a Worker's `env` bindings).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Miniflare } from "miniflare";
import { expect, inject } from "vitest";
import {
  type CliProcess,
  REPO_ROOT,
  runCli,
  spawnProgram,
  startCli,
  startProgram,
} from "../../http-cli/helpers.js";

export type Target = "node" | "bun" | "deno" | "cloudflare";
export type Door = "serve" | "node" | "bun" | "deno" | "deno serve" | "workerd";

export const DOORS: readonly Door[] = ["serve", "node", "bun", "deno", "deno serve", "workerd"];

const BIN = join(REPO_ROOT, "node_modules", ".bin");
export const BUN = join(BIN, "bun");
export const DENO = join(BIN, "deno");
export const BUNDLE = "server.mjs";

/** What a bundle says of MCP_DIR_REDIS_URL, as a program and as a Worker. */
export const NO_REDIS =
  "MCP_DIR_REDIS_URL is set, but a built bundle does not connect to Redis: its replicas would share no tasks, resource updates or 2025 streams. Unset it, or run the server directory with mcp-dir serve, which shares them through Redis";

/** What a built bundle needs of Deno: the network, and the environment it reads its settings from. */
export const DENO_PERMISSIONS = ["--allow-net", "--allow-env"];

const workers = new Set<Miniflare>();

/** Builds `dir` for `target` into `out`; fails the test if the build does. */
export async function build(dir: string, out: string, target: Target): Promise<void> {
  const built = await runCli(["build", dir, "--out", out, "--target", target]);
  expect(built.stderr).toBe("");
  expect(built.code).toBe(0);
}

/** What `mcp-dir build` of example-server for a target said, and where it wrote. */
export interface ExampleBuild {
  out: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `mcp-dir build example-server --target <target>`, run once per run: the
 * global setup's service builds it at the first ask of any worker, in the
 * run's shared folder (removed after the run), and answers every ask with the
 * same build (test/helpers/example-builds.ts). Only for what runs or reads a
 * build: nothing may write into its folder.
 */
export async function buildExample(target: Target): Promise<ExampleBuild> {
  const response = await fetch(new URL(target, inject("exampleBuilds")));
  return (await response.json()) as ExampleBuild;
}

/** buildExample's folder; fails the test if the build did. */
export async function builtExample(target: Target): Promise<string> {
  const built = await buildExample(target);
  expect(built.stderr).toBe("");
  expect(built.code).toBe(0);
  return built.out;
}

/** The target a door runs a bundle built for; `serve` runs the directory itself. */
export function targetOf(door: Door): Target | undefined {
  if (door === "serve") return undefined;
  if (door === "workerd") return "cloudflare";
  if (door === "deno serve") return "deno";
  return door;
}

/** The command that runs a built bundle as a program with `args`. */
export function bundleCommand(door: "node" | "bun" | "deno", out: string, args: string[]) {
  const bundle = join(out, BUNDLE);
  if (door === "node") return { command: process.execPath, args: [bundle, ...args] };
  if (door === "bun") return { command: BUN, args: [bundle, ...args] };
  return { command: DENO, args: ["run", ...DENO_PERMISSIONS, bundle, ...args] };
}

/** Runs a built bundle as a program to its end. */
export function runBundle(
  door: "node" | "bun" | "deno",
  out: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): CliProcess {
  const { command, args: argv } = bundleCommand(door, out, args);
  return spawnProgram(command, argv, { env });
}

/** `deno serve` of a built bundle, with extra flags before the module. */
export function denoServe(out: string, flags: string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  return spawnProgram(DENO, ["serve", ...flags, join(out, BUNDLE)], { env });
}

/**
 * Starts one door on a free loopback port with `env` as its environment (a
 * Worker's bindings for workerd) and resolves to its MCP endpoint URL.
 */
export async function startDoor(
  door: Door,
  source: { dir: string; out: string },
  env: Record<string, string>,
): Promise<string> {
  const http = ["--http", "--port", "0"];
  if (door === "serve") return (await startCli(["serve", source.dir, ...http], { env })).url;
  if (door === "deno serve") {
    const running = denoServe(
      source.out,
      [...DENO_PERMISSIONS, "--host", "127.0.0.1", "--port", "0"],
      env,
    );
    const [, url = ""] = await running.waitForStderr(/ at (http:\/\/\S+)\n/);
    return url;
  }
  if (door === "workerd") {
    const worker = await newWorker(source.out, env);
    workers.add(worker);
    return new URL("/mcp", await worker.ready).href;
  }
  const { command, args } = bundleCommand(door, source.out, http);
  return (await startProgram(command, args, { env })).url;
}

/**
 * A Miniflare (workerd) serving the bundle in `out` with `bindings`. The bundle
 * is one ES module, given as such: told only its path, Miniflare parses it to
 * find what it imports, some 1.2 s of CPU a start for an example-server bundle
 * (against 0.2 s for all the rest).
 */
export async function newWorker(out: string, bindings: Record<string, string>): Promise<Miniflare> {
  const path = join(out, BUNDLE);
  return new Miniflare({
    modules: [{ type: "ESModule", path, contents: await readFile(path, "utf8") }],
    modulesRoot: out,
    compatibilityDate: "2026-04-01",
    compatibilityFlags: ["nodejs_compat"],
    bindings,
    port: 0,
  });
}

export async function stopWorkers(): Promise<void> {
  const running = [...workers];
  workers.clear();
  await Promise.all(running.map((worker) => worker.dispose()));
}
