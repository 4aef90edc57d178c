// The official TypeScript SDK: McpServer with one echo tool over stdio.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "bench", version: "1.0.0" });

server.registerTool(
  "echo",
  { description: "Echo", inputSchema: { message: z.string() } },
  async ({ message }) => ({ content: [{ type: "text", text: message }] }),
);

await server.connect(new StdioServerTransport());
