/**
 * `mcp-dir build example-server --target <t>`, made once per run for every
 * worker: a loopback HTTP service of vitest's global setup, which runs each
 * target's build at its first request and answers every request for it with
 * the same result (GET /<target>: { out, code, stdout, stderr } as JSON).
 * The files that run or read a build (test/build/helpers/runtimes.ts) wait
 * on the answer; none may write into its folder. A rerun (watch mode) builds
 * again, into folders of its own.
 */
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// Paths of their own, not the CLI helpers': those import the SDK, which the global setup would load for this alone.
const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLI = join(REPO_ROOT, "dist", "cli", "main.js");
const EXAMPLE_SERVER = join(REPO_ROOT, "example-server");

const TARGETS = new Set(["node", "bun", "deno", "cloudflare"]);

/** `mcp-dir <args>` run to its end from the repository, as the tests' runCli runs it. */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: REPO_ROOT }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts the service; resolves to its URL, a way to forget the builds made, and a way to stop it. */
export async function startExampleBuilds(
  folder: string,
): Promise<{ url: string; forget: () => void; close: () => Promise<void> }> {
  let builds = new Map<string, Promise<string>>();
  let round = 0;
  const buildOnce = (target: string): Promise<string> => {
    let built = builds.get(target);
    if (built === undefined) {
      const out = join(folder, `example-server-${round}`, target);
      built = runCli(["build", EXAMPLE_SERVER, "--out", out, "--target", target]).then(
        ({ code, stdout, stderr }) => JSON.stringify({ out, code, stdout, stderr }),
      );
      builds.set(target, built);
    }
    return built;
  };
  const service = createServer((request, response) => {
    const target = (request.url ?? "").slice(1);
    if (!TARGETS.has(target)) {
      response.writeHead(404).end();
      return;
    }
    void buildOnce(target).then((body) => {
      response.writeHead(200, { "content-type": "application/json" }).end(body);
    });
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  const { port } = service.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    forget: () => {
      builds = new Map();
      round += 1;
    },
    close: () => new Promise((resolve) => service.close(() => resolve())),
  };
}
