/**
 * esbuild's processes start with GOGC=400 (esbuild-gc.ts) unless the
 * environment sets GOGC; the variable is set only while esbuild starts them,
 * so author code sees the environment as it is.
 */
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { connectToServe, stopAll } from "../cli/helpers/cli.js";
import { createServerDir, removeServerDirs } from "./helpers/server-dir.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const tool = `import { defineTool } from "mcp-dir";
export default defineTool({ description: "GOGC " + (process.env.GOGC ?? "unset"), handler: () => "ok" });
`;

/** The GOGC each esbuild process `pid` started has in its environment. */
function esbuildGogc(pid: number): (string | undefined)[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean),
  );
  return children
    .filter((child) => readFileSync(`/proc/${child}/cmdline`, "utf8").includes("esbuild"))
    .map((child) =>
      readFileSync(`/proc/${child}/environ`, "utf8")
        .split("\0")
        .find((entry) => entry.startsWith("GOGC="))
        ?.slice("GOGC=".length),
    );
}

describe.runIf(process.platform === "linux")("esbuild's collector setting", () => {
  it("is 400 for esbuild's processes, and author code does not see it", async () => {
    const dir = await createServerDir({ "tools/env.ts": tool });
    const { client, transport } = await connectToServe(dir, { env: { TSX_DISABLE_CACHE: "1" } });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.description)).toEqual(["GOGC unset"]);
    const gogc = esbuildGogc(transport.pid as number);
    expect(gogc.length).toBeGreaterThan(0);
    expect(new Set(gogc)).toEqual(new Set(["400"]));
  });

  it("is the environment's own GOGC when it sets one", async () => {
    const dir = await createServerDir({ "tools/env.ts": tool });
    const { client, transport } = await connectToServe(dir, {
      env: { TSX_DISABLE_CACHE: "1", GOGC: "150" },
    });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.description)).toEqual(["GOGC 150"]);
    expect(new Set(esbuildGogc(transport.pid as number))).toEqual(new Set(["150"]));
  });
});
