// mcp-dir: one echo tool through the public API, served over Streamable HTTP.
// Needs a build: dist/index.js is produced by `npm run build`.
import { z } from "zod";
import { createServer, defineTool, serveHttp } from "../../dist/index.js";

const server = createServer({ name: "bench", version: "1.0.0" });

server.add(
  defineTool({
    name: "echo",
    description: "Echo",
    input: { message: z.string() },
    handler: ({ message }) => message,
  }),
);

const { url } = await serveHttp(server, { port: 0 });
console.log(url);
