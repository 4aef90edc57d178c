// The official TypeScript SDK v2 (@modelcontextprotocol/server): one echo tool over
// stdio with its serveStdio, which serves 2026-07-28 requests (and 2025 sessions).
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

function createServer() {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Echo", inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => ({ content: [{ type: "text", text: message }] }),
  );
  return server;
}

void serveStdio(createServer);
