// The official TypeScript SDK v2 (@modelcontextprotocol/server): createMcpHandler serving
// 2026-07-28 requests statelessly, mounted on node:http with @modelcontextprotocol/node's
// toNodeHandler, as its documentation shows.
import { createServer } from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Echo", inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => ({ content: [{ type: "text", text: message }] }),
  );
  return server;
});
const nodeHandler = toNodeHandler(handler);

const http = createServer((req, res) => {
  void nodeHandler(req, res);
});

http.listen(0, "127.0.0.1", () => {
  console.log(`http://127.0.0.1:${http.address().port}/mcp`);
});
