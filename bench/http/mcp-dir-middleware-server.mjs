// mcp-dir with three trivial middleware around its one echo tool (each awaits next()),
// served over Streamable HTTP: what middleware cost per call, against mcp-dir-server.mjs.
// Needs a build: dist/index.js is produced by `npm run build`.
import { z } from "zod";
import { createServer, defineTool, serveHttp } from "../../dist/index.js";

const passOn = (_ctx, next) => next();
const server = createServer({
  name: "bench",
  version: "1.0.0",
  middleware: [passOn, passOn, passOn],
});

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
