import * as jose from "jose";

/** When a server with `toleranceSeconds` of clock tolerance stops accepting `token`: its exp, plus the tolerance (ms). */
export function refusedFrom(token: string, toleranceSeconds: number): number {
  return ((jose.decodeJwt(token).exp ?? 0) + toleranceSeconds) * 1000;
}

/** The 401 body for an expired `token`. */
export function expiredRefusal(token: string) {
  const exp = new Date((jose.decodeJwt(token).exp ?? 0) * 1000).toISOString();
  return {
    jsonrpc: "2.0",
    error: {
      code: -32000,
      message: `Unauthorized: the access token expired at ${exp}; get a new one`,
    },
  };
}

/** The result a listen stream of scopedServer() ends with: its end, at expiry as at shutdown. */
export function listenEnded(id: number) {
  return {
    jsonrpc: "2.0",
    id,
    result: {
      resultType: "complete",
      _meta: {
        "io.modelcontextprotocol/subscriptionId": id,
        "io.modelcontextprotocol/serverInfo": { name: "scoped", version: "1.0.0" },
      },
    },
  };
}
