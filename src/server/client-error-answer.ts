/**
 * What a handler's ask (ctx.sample, ctx.elicit, ctx.roots) rejects with when
 * the client answers the server's request with a JSON-RPC error. Its `code`
 * and `data` are the client's, for a handler that looks; it is not a
 * JsonRpcError, so a handler that lets it through fails as with any error of
 * its own (-32603 for a prompt or a resource, an isError result for a tool),
 * rather than answering its own caller with the client's code: a client's
 * -32602 would read as "your params were wrong" to a request whose params
 * were fine.
 */
export class ClientErrorAnswer extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly clientMessage: string,
    readonly data?: unknown,
  ) {
    // The official SDK's McpError writes its code into its message: said once is enough.
    const prefix = `MCP error ${code}: `;
    const said = clientMessage.startsWith(prefix)
      ? clientMessage.slice(prefix.length)
      : clientMessage;
    super(`the client answered ${method} with error ${code}: ${said}`);
    this.name = "ClientErrorAnswer";
  }
}
