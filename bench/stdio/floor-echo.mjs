// The floor: the least work a stdio MCP echo server can do.
// Newline-delimited JSON in, one JSON.parse and one JSON.stringify per message,
// the responses to one chunk of input in one write. Anything slower than this is
// framework overhead.

const serverInfo = { name: "floor-echo", version: "1.0.0" };

/** Builds the response for one request, or returns undefined for a notification. */
function respond(request) {
  if (request.id === undefined) return undefined;
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
    const result = {
      protocolVersion: params?.protocolVersion ?? "2025-06-18",
      capabilities: { tools: {} },
      serverInfo,
    };
    return { jsonrpc: "2.0", id, result };
  }
  return { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } };
}

/** The response line to one input line, or "" when there is none. */
function handleLine(line) {
  if (line.trim() === "") return "";
  const response = respond(JSON.parse(line));
  return response === undefined ? "" : `${JSON.stringify(response)}\n`;
}

let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  let out = "";
  let newline = buffered.indexOf("\n");
  while (newline !== -1) {
    out += handleLine(buffered.slice(0, newline));
    buffered = buffered.slice(newline + 1);
    newline = buffered.indexOf("\n");
  }
  if (out !== "") process.stdout.write(out);
});
process.stdin.on("end", () => process.exit(0));
