import * as jose from "jose";

/**
 * A JWT signed with `key`, claiming what a real access token of `issuer` for
 * `resource` would (with every scope scopedServer knows), with `claims` over it.
 */
export async function forgedToken(
  key: jose.CryptoKey | Uint8Array,
  header: jose.JWTHeaderParameters,
  { issuer, resource }: { issuer: string; resource: string },
  claims: jose.JWTPayload = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new jose.SignJWT({
    iss: issuer,
    aud: resource,
    sub: "mallory",
    scope: "mcp admin deploy",
    iat: now,
    exp: now + 600,
    ...claims,
  })
    .setProtectedHeader(header)
    .sign(key);
}
