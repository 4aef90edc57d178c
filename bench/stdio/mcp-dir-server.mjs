// mcp-dir: one echo tool through the public API, served over stdio.
// Needs a build: dist/index.js is produced by `npm run build`.
import { z } from "zod";
import { createServer, defineTool, serveStdio } from "../../dist/index.js";

const server = createServer({ name: "bench", version: "1.0.0" });

server.add(
  defineTool({
    name: "echo",
    description: "Echo",
    input: { message: z.string() },
    handler: ({ message }) => message,
  }),
);

await serveStdio(server);
