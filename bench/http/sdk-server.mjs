// The official TypeScript SDK, stateful: one McpServer and one
// StreamableHTTPServerTransport per session, as its documentation shows.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const transports = new Map();

function newSession() {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Echo", inputSchema: { message: z.string() } },
    async ({ message }) => ({ content: [{ type: "text", text: message }] }),
  );
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => transports.set(id, transport),
  });
  transport.onclose = () => transports.delete(transport.sessionId);
  server.connect(transport);
  return transport;
}

const http = createServer((req, res) => {
  const id = req.headers["mcp-session-id"];
  const transport = id === undefined ? newSession() : transports.get(id);
  if (!transport) {
    res.writeHead(404).end();
    return;
  }
  transport.handleRequest(req, res);
});

http.listen(0, "127.0.0.1", () => {
  console.log(`http://127.0.0.1:${http.address().port}/mcp`);
});
