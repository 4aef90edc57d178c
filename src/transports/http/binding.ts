import { LOOPBACK_HOSTS } from "../../settings/http-options.js";

/**
 * Where a server listens, and what that exposes: the rules every way of
 * serving HTTP shares (`serveHttp`, a built bundle on Bun or Deno, `deno
 * serve`), so each refuses and warns alike.
 */

const WILDCARD_HOSTS: ReadonlySet<string> = new Set(["0.0.0.0", "::", "[::]"]);

export function isLoopback(host: string): boolean {
  return (
    host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host)
  );
}

export function isWildcard(host: string): boolean {
  return WILDCARD_HOSTS.has(host);
}

export function bracketed(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** What a client on this machine connects to: the bound address, or 127.0.0.1 for every interface. */
export function connectableHost(host: string): string {
  return isWildcard(host) ? "127.0.0.1" : bracketed(host);
}

/** Whether the options ask callers for a token: the static one, or OAuth access tokens. */
export function isAuthenticated(options: { authToken?: string; auth?: unknown }): boolean {
  return options.authToken !== undefined || options.auth !== undefined;
}

/**
 * Refuses to serve beyond this machine with nothing between a caller and
 * every tool: a non-loopback host needs a token, or the explicit word that
 * the server is meant to be open.
 */
export function checkExposure(
  host: string,
  authenticated: boolean,
  allowUnauthenticatedRemote: boolean,
): void {
  if (isLoopback(host) || authenticated || allowUnauthenticatedRemote) return;
  throw new Error(
    `Refusing to listen on ${host} without authentication: any machine that can reach it could call every tool. Set MCP_DIR_AUTH_TOKEN (or --auth-token, authToken) to require a bearer token, or MCP_DIR_AUTH_ISSUER (--auth-issuer, auth.issuer) to accept OAuth access tokens, or pass --allow-unauthenticated-remote (allowUnauthenticatedRemote: true) if the server is meant to be open`,
  );
}

/**
 * Which Host headers to accept when the caller did not say: the loopback names,
 * plus the bound address. Bound to every interface, any name may reach us, so
 * only the Origin check is left, and we say so.
 */
export function defaultAllowedHosts(
  host: string,
  warn: (message: string) => void,
): readonly string[] {
  if (isLoopback(host)) return LOOPBACK_HOSTS;
  if (isWildcard(host)) {
    warn(
      `listening on every interface (${host}): any Host header is accepted, so DNS rebinding protection rests on the Origin check alone (browser pages need a loopback Origin or one in allowedOrigins); set allowedHosts to the names clients use`,
    );
    return ["*"];
  }
  // A fully qualified name's trailing dot is not in the Host header clients send.
  return [...LOOPBACK_HOSTS, bracketed(host.replace(/\.$/, ""))];
}

/** A listen failure, as Node (`code`), Bun (`code`) or Deno (the error's `name`) reports it. */
export function listenError(error: unknown, host: string, port: number): Error {
  const where = `${bracketed(host)}:${port}`;
  const { code, name, message } = (error ?? {}) as {
    code?: string;
    name?: string;
    message?: string;
  };
  const kind = code ?? name;
  if (kind === "EADDRINUSE" || kind === "AddrInUse") {
    return new Error(
      `Cannot listen on ${where}: the port is in use; choose another port (0 picks a free one)`,
    );
  }
  if (kind === "EACCES" || kind === "PermissionDenied") {
    return new Error(`Cannot listen on ${where}: permission denied; use a port above 1023`);
  }
  if (kind === "EADDRNOTAVAIL" || kind === "ENOTFOUND" || kind === "AddrNotAvailable") {
    return new Error(`Cannot listen on ${where}: no such address on this machine; check the host`);
  }
  return new Error(`Cannot listen on ${where}: ${message ?? String(error)}`);
}
