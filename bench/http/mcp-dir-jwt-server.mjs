// mcp-dir with OAuth on: JWT access tokens verified against a JWKS (served from this
// process, on loopback, so no issuer metadata is fetched), and an echo tool that needs a
// scope. Prints "<url> <token>": the driver sends the token on every request, so after
// the first call the server answers with a token it has already verified, as it does
// for a client that keeps its token. Against mcp-dir-server.mjs: what auth costs per call.
// Needs a build: dist/index.js is produced by `npm run build`.
import { createServer as createHttpServer } from "node:http";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { z } from "zod";
import { createServer, defineTool, serveHttp } from "../../dist/index.js";

const ISSUER = "https://issuer.bench.example";
const AUDIENCE = "https://mcp.bench.example/mcp";

const { privateKey, publicKey } = await generateKeyPair("RS256");
const jwks = JSON.stringify({
  keys: [{ ...(await exportJWK(publicKey)), kid: "bench", alg: "RS256" }],
});
const keys = createHttpServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(jwks);
});
await new Promise((resolve) => keys.listen(0, "127.0.0.1", resolve));

const server = createServer({ name: "bench", version: "1.0.0" });
server.add(
  defineTool({
    name: "echo",
    description: "Echo",
    scopes: ["echo"],
    input: { message: z.string() },
    handler: ({ message }) => message,
  }),
);

const { url } = await serveHttp(server, {
  port: 0,
  auth: {
    issuer: ISSUER,
    audience: AUDIENCE,
    jwksUri: `http://127.0.0.1:${keys.address().port}/jwks`,
  },
});
const token = await new SignJWT({ scope: "echo", client_id: "bench" })
  .setProtectedHeader({ alg: "RS256", kid: "bench", typ: "at+jwt" })
  .setIssuer(ISSUER)
  .setAudience(AUDIENCE)
  .setSubject("bench-user")
  .setIssuedAt()
  .setExpirationTime("2h")
  .sign(privateKey);
console.log(`${url} ${token}`);
