/**
 * Who is calling, as the server verified it from the request's OAuth access
 * token. Only HTTP with an authorization server (or a `verifyToken` of your
 * own) gives one; on stdio, without auth, or with the static token there is
 * no caller to name, and `ctx.auth` is undefined.
 */
export interface AuthInfo {
  /** The user (`sub`); for a client acting on its own behalf, often its client id. */
  readonly subject: string | undefined;
  /** The OAuth client the token was issued to (`client_id`, or `azp`). */
  readonly clientId: string | undefined;
  /** The scopes the token grants. */
  readonly scopes: readonly string[];
  /** When the token expires, in seconds since the epoch (`exp`). */
  readonly expiresAt: number | undefined;
  /** Every claim of the token: the JWT's payload, or the introspection answer. */
  readonly claims: Readonly<Record<string, unknown>>;
}
