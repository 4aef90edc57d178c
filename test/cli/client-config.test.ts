import { join, parse } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { connectToServe, stopAll } from "./helpers/cli.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

describe("the client configuration the README shows", () => {
  it("serves the project with its own mcp-dir when the client starts it from another directory", async () => {
    // createServerDir installs mcp-dir (this repository) in the project's node_modules.
    const dir = await createServerDir({
      "tools/echo.ts": 'export default { description: "Echo", handler: () => "hi" };\n',
    });
    // As in the README: node <project>/node_modules/mcp-dir/dist/cli/main.js serve <project>,
    // started where a client starts it (Claude Desktop: "/").
    const { client } = await connectToServe(dir, {
      cli: join(dir, "node_modules", "mcp-dir", "dist", "cli", "main.js"),
      cwd: parse(dir).root,
    });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo"]);
    expect(await client.callTool({ name: "echo", arguments: {} })).toEqual({
      content: [{ type: "text", text: "hi" }],
    });
  });
});
