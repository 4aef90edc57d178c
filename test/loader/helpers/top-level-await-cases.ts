/** What top-level await in author files must do in check, serve, dev and build. */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { connectToServe, runCli, stopAll } from "../../cli/helpers/cli.js";
import {
  connectDev,
  reloaded,
  stopDevServers,
  textOf,
  toolFile,
} from "../../dev/helpers/dev-server.js";
import { createServerDir, removeServerDirs, type ServerDirOptions } from "./server-dir.js";

/** A TypeScript tool whose answer is awaited at its top level. */
const awaiting = (answer: string) => `import { defineTool } from "mcp-dir";
const answer: string = await Promise.resolve(${JSON.stringify(answer)});
export default defineTool({ description: "Awaits at its top level", handler: () => answer });
`;

const FILES = {
  "tools/awaits.ts": awaiting("awaited"),
  "tools/plain.js": `const answer = await Promise.resolve("plain js");
export default { description: "Plain JavaScript that awaits", handler: () => answer };
`,
  "tools/helper-user.ts": `import { greeting } from "./_greeting.js";
await Promise.resolve();
export default { description: "Awaits and imports a helper", handler: () => greeting };
`,
  "tools/_greeting.ts": `export const greeting: string = "hello from a helper";\n`,
};

/**
 * The cases for one kind of server directory that is not an ES module package;
 * each kind has a file of its own, so that the two run side by side.
 */
export function describeTopLevelAwait(what: string, options: ServerDirOptions): void {
  const clients = new Set<Client>();
  afterEach(async () => {
    await stopAll();
    await stopDevServers();
    await Promise.all([...clients].map((client) => client.close()));
    clients.clear();
  });
  afterAll(removeServerDirs);

  describe(`top-level await in a server directory with ${what}`, () => {
    it("loads in check", async () => {
      const dir = await createServerDir(FILES, options);
      expect(await runCli(["check", dir])).toEqual({
        code: 0,
        stdout: `mcp-dir check: ${dir} is fine: 3 tools, 0 prompts, 0 resources\n`,
        stderr: "",
      });
    });

    it("serves each file's tool", async () => {
      const { client } = await connectToServe(await createServerDir(FILES, options));
      const call = async (name: string) => textOf(await client.callTool({ name, arguments: {} }));
      expect(await call("awaits")).toBe("awaited");
      expect(await call("plain")).toBe("plain js");
      expect(await call("helper-user")).toBe("hello from a helper");
    });

    it("loads in dev, at start and when a save adds the await", async () => {
      const dev = await connectDev(
        await createServerDir(
          { ...FILES, "tools/later.ts": toolFile("Awaits later", "not yet") },
          options,
        ),
      );
      expect(textOf(await dev.client.callTool({ name: "awaits", arguments: {} }))).toBe("awaited");
      dev.write("tools/later.ts", awaiting("awaited on save"));
      await dev.waitForLine(reloaded("tools/later.ts"));
      expect(textOf(await dev.client.callTool({ name: "later", arguments: {} }))).toBe(
        "awaited on save",
      );
    });

    it("builds a bundle that serves it", async () => {
      const dir = await createServerDir(FILES, options);
      const out = join(dir, "dist-mcp");
      const built = await runCli(["build", dir, "--out", out]);
      expect({ code: built.code, stderr: built.stderr }).toEqual({ code: 0, stderr: "" });
      const client = new Client({ name: "top-level-await-test", version: "1.0.0" });
      clients.add(client);
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [join(out, "server.mjs")],
          stderr: "ignore",
        }),
      );
      expect(textOf(await client.callTool({ name: "awaits", arguments: {} }))).toBe("awaited");
      expect(textOf(await client.callTool({ name: "helper-user", arguments: {} }))).toBe(
        "hello from a helper",
      );
    });
  });
}
