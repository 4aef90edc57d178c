// mcp-dir with three trivial middleware around its one echo tool (each awaits next()),
// served over stdio: what middleware cost per call, against mcp-dir-server.mjs.
// Needs a build: dist/index.js is produced by `npm run build`.
import { z } from "zod";
import { createServer, defineTool, serveStdio } from "../../dist/index.js";

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

await serveStdio(server);
