// The floor: the least work a Streamable HTTP echo server can do on node:http.
// One JSON.parse and one JSON.stringify per message, a JSON response per request,
// no validation, no sessions beyond handing out one id. Anything slower is overhead.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";

const serverInfo = { name: "floor-echo", version: "1.0.0" };

function respond(request) {
  const { id, method, params } = request;
  if (method === "tools/call" && params?.name === "echo") {
    const text = params.arguments?.message;
    const content = [{ type: "text", text }];
    // A 2026-07-28 request (its _meta claims a version) gets the result shape that
    // revision requires: resultType, and the server's identity in _meta.
    if (params._meta?.["io.modelcontextprotocol/protocolVersion"] !== undefined) {
      const _meta = { "io.modelcontextprotocol/serverInfo": serverInfo };
      return { jsonrpc: "2.0", id, result: { resultType: "complete", content, _meta } };
    }
    return { jsonrpc: "2.0", id, result: { content } };
  }
  if (method === "initialize") {
    const protocolVersion = params?.protocolVersion ?? "2025-06-18";
    return {
      jsonrpc: "2.0",
      id,
      result: { protocolVersion, capabilities: { tools: {} }, serverInfo },
    };
  }
  return { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } };
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const request = JSON.parse(Buffer.concat(chunks).toString());
    if (request.id === undefined) {
      res.writeHead(202);
      res.end();
      return;
    }
    const body = JSON.stringify(respond(request));
    const headers = {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
    };
    if (request.method === "initialize") headers["mcp-session-id"] = randomUUID();
    res.writeHead(200, headers);
    res.end(body);
  });
});

server.listen(0, "127.0.0.1", () => {
  console.log(`http://127.0.0.1:${server.address().port}/mcp`);
});
