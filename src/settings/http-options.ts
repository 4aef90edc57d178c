import { givenValue } from "../define/given-value.js";
import { MAX_TIMEOUT_MS } from "../define/timeout.js";
import { heapQuarter } from "../server/index.js";
import {
  absoluteUrl,
  type HttpAuthOptions,
  type ResolvedAuthOptions,
  resolveAuthOptions,
} from "./auth-options.js";

/** How the Streamable HTTP endpoint behaves; every field has a safe default. */
export interface HttpHandlerOptions {
  /** The MCP endpoint. Default "/mcp". */
  path?: string;
  /**
   * Host header values accepted (hostnames, any port), against DNS rebinding.
   * Default: localhost, 127.0.0.1 and [::1]. `["*"]` accepts any Host.
   */
  allowedHosts?: readonly string[];
  /**
   * Origins accepted besides those of the allowed hosts, e.g. "https://app.example.com".
   * A request with any other Origin gets 403.
   */
  allowedOrigins?: readonly string[];
  /** Largest request body, in bytes. Default 4 MiB; larger bodies get 413. */
  maxBodyBytes?: number;
  /** When set, every MCP request needs `Authorization: Bearer <authToken>` (401 otherwise). */
  authToken?: string;
  /**
   * OAuth 2.1: access tokens from an authorization server (JWTs checked
   * against its keys, opaque tokens by introspection, or your own
   * `verifyToken`), scopes per definition, `ctx.auth`. The static `authToken`
   * keeps working beside it.
   */
  auth?: HttpAuthOptions;
  /** Listed as `authorization_servers` in the protected-resource metadata. */
  authorizationServers?: readonly string[];
  /**
   * The public URL of the endpoint, when a proxy changes it, such as
   * "https://mcp.example.com/mcp" (an origin alone means the endpoint is at
   * `path` there); default: from the Host header. The metadata's `resource`,
   * the default audience, and the 401 challenge's `resource_metadata` (the
   * well-known path inserted after its host, RFC 9728) come from it.
   */
  publicUrl?: string;
  /**
   * Sessions open at once, and 2026-07-28 listen streams open at once (counted
   * apart). Default 1000 each; a new initialize or subscriptions/listen past it
   * gets 503 until one ends (DELETE or idle timeout; the stream closed).
   */
  maxSessions?: number;
  /**
   * What one caller (the subject or client an OAuth access token names) may
   * hold of those: sessions, and listen streams, counted apart. Default a
   * tenth of maxSessions, rounded up (100); one more gets 429 until one of its
   * own ends, so one caller cannot take every place. Without a caller to name
   * (no auth, or the static authToken every client shares) only maxSessions
   * holds; set it to maxSessions to bound callers by that alone.
   */
  maxSessionsPerCaller?: number;
  /** A session with no request and no open stream for this long ends. Default 30 min; 0 never. */
  sessionIdleTimeoutMs?: number;
  /** The SSE `retry` field: how long a client waits before reconnecting. Default 1000 ms. */
  retryMs?: number;
  /** Interval of SSE keep-alive comments on open streams. Default 15 s; 0 sends none. */
  keepAliveMs?: number;
  /**
   * Events kept for `Last-Event-ID` replay: per session, 500 events and 4 MiB
   * by default; across all sessions, `maxTotalBytes`, by default a quarter of
   * the JavaScript heap the process runs with (32 MiB where the runtime does
   * not tell it). Past either, the oldest events go first.
   */
  replay?: { maxEvents?: number; maxBytes?: number; maxTotalBytes?: number };
}

export interface ResolvedHttpOptions {
  readonly path: string;
  /** Lower-case hostnames; undefined accepts any Host. */
  readonly allowedHosts: ReadonlySet<string> | undefined;
  readonly allowedOrigins: ReadonlySet<string>;
  readonly maxBodyBytes: number;
  readonly authToken: string | undefined;
  readonly auth: ResolvedAuthOptions | undefined;
  readonly authorizationServers: readonly string[];
  /** The endpoint's public URL, its path included (an origin alone was given `path`). */
  readonly publicUrl: string | undefined;
  readonly maxSessions: number;
  readonly maxSessionsPerCaller: number;
  readonly sessionIdleTimeoutMs: number;
  readonly retryMs: number;
  readonly keepAliveMs: number;
  readonly replayMaxEvents: number;
  readonly replayMaxBytes: number;
  readonly replayMaxTotalBytes: number;
}

export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

export const DEFAULT_MAX_SESSIONS = 1000;

const MIB = 1024 * 1024;

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) {
    throw new TypeError(`${name} must be a number of 0 or more, got ${givenValue(value)}`);
  }
  return value;
}

/**
 * A period a timer waits (ours for keep-alives, a client's for `retry`): a
 * whole number of ms a timer can hold. Past 2^31 - 1 a timer fires after 1 ms
 * (Node says so once, as TimeoutOverflowWarning), so a setting meant as "hardly
 * ever" would mean "all the time"; a fraction is no SSE `retry` value.
 */
function timerPeriod(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0 || value > MAX_TIMEOUT_MS) {
    throw new TypeError(
      `${name} must be a whole number of milliseconds from 0 to ${MAX_TIMEOUT_MS} (about 24.8 days, the longest a timer waits), got ${givenValue(value)}`,
    );
  }
  return value;
}

/**
 * An allowed Origin is compared with the request's `Origin` header as is, and
 * browsers send a serialised origin: lower-case scheme and host, no default
 * port, no path, not even "/". An entry written any other way would never
 * match: refuse it, saying what to write. "null" (what sandboxed pages send)
 * is taken as written.
 */
function allowedOrigin(entry: string, index: number): string {
  if (entry === "null") return entry;
  let url: URL | undefined;
  try {
    url = new URL(entry);
  } catch {
    url = undefined;
  }
  // A scheme browsers give no tuple origin (chrome-extension:, say) serialises as it is written.
  const origin =
    url === undefined
      ? undefined
      : url.origin !== "null"
        ? url.origin
        : `${url.protocol}//${url.host}`;
  if (origin === entry) return entry;
  let instead = "";
  if (origin !== undefined && url?.host !== "") instead = `; write "${origin}"`;
  else if (/^[A-Za-z0-9.-]+(:\d+)?\/*$/.test(entry))
    instead = `; write "https://${entry.replace(/\/+$/, "")}"`;
  else if (entry === "*")
    instead = "; list each origin (pages of allowedHosts are accepted already)";
  throw new TypeError(
    `allowedOrigins[${index}] must be an origin as browsers send it in the Origin header (scheme://host[:port], no path, not even "/"), such as "https://app.example.com", got ${JSON.stringify(entry)}${instead}`,
  );
}

/** A Host header's name: a bracketed IPv6 address, or dot-separated labels (no empty one, no trailing dot). */
const HOST_NAME = /^(?:\[[^\]\s/]+\]|[A-Za-z0-9_~!$&'()+,;=%-]+(?:\.[A-Za-z0-9_~!$&'()+,;=%-]+)*)$/;

/**
 * An allowed host is compared with the name of the request's `Host` header,
 * lower-cased, its port dropped (`hostnameOf`): an entry with a scheme, a
 * port, a path, white space or a trailing dot would never match, and ""
 * would match only a request whose Host header is empty, which no browser or
 * MCP client sends. Refuse such an entry, saying what to write.
 */
function allowedHost(entry: string, index: number): string {
  if (entry === "*" || HOST_NAME.test(entry)) return entry.toLowerCase();
  const trimmed = entry.trim();
  let instead = "";
  if (trimmed === "") {
    instead = "; leave it out: it would accept only requests whose Host header is empty";
  } else if (trimmed.includes("*")) {
    instead = '; list each name ("*" alone accepts any Host)';
  } else {
    const meant = hostNameIn(trimmed);
    if (meant !== undefined) instead = `; write "${meant}"`;
  }
  throw new TypeError(
    `allowedHosts[${index}] must be a host name as clients send it in the Host header, with no scheme, port or path (every port is accepted), such as "mcp.example.com", got ${JSON.stringify(entry)}${instead}`,
  );
}

/** The host name a URL, or a host with a port or a path, names; an IPv6 address bracketed. */
function hostNameIn(text: string): string | undefined {
  if (/^[0-9A-Fa-f]*:[0-9A-Fa-f:.]*:[0-9A-Fa-f.]*$/.test(text)) return `[${text.toLowerCase()}]`;
  try {
    const { hostname } = new URL(text.includes("://") ? text : `http://${text}`);
    const name = hostname.replace(/\.$/, "");
    return HOST_NAME.test(name) ? name : undefined;
  } catch {
    return undefined;
  }
}

/** A count of things held at once: 0 would refuse every one. */
function atLeastOne(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`${name} must be a whole number of 1 or more, got ${givenValue(value)}`);
  }
  return value;
}

/** A setting 0 would not turn off: its refusal of -1 must not suggest 0. */
function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new TypeError(`${name} must be greater than 0, got ${givenValue(value)}`);
  }
  return value;
}

export function resolveHttpOptions(options: HttpHandlerOptions = {}): ResolvedHttpOptions {
  const path = options.path ?? "/mcp";
  if (!path.startsWith("/") || path.includes("?") || path.includes("#")) {
    throw new TypeError(`path must start with "/" and hold no query or fragment, got "${path}"`);
  }
  const hosts = options.allowedHosts ?? LOOPBACK_HOSTS;
  const maxSessions = atLeastOne(options.maxSessions, DEFAULT_MAX_SESSIONS, "maxSessions");
  const maxSessionsPerCaller = atLeastOne(
    options.maxSessionsPerCaller,
    Math.ceil(maxSessions / 10),
    "maxSessionsPerCaller",
  );
  if (options.authToken !== undefined && options.authToken.trim() === "") {
    throw new TypeError("authToken must not be empty; leave it unset to turn auth off");
  }
  return {
    path,
    allowedHosts: allowedHostSet(hosts),
    allowedOrigins: new Set((options.allowedOrigins ?? []).map(allowedOrigin)),
    maxBodyBytes: positive(options.maxBodyBytes, 4 * MIB, "maxBodyBytes"),
    authToken: options.authToken,
    auth: resolveAuthOptions(options.auth),
    authorizationServers: (options.authorizationServers ?? []).map((server, index) =>
      absoluteUrl(server, `authorizationServers[${index}]`),
    ),
    publicUrl: publicEndpoint(options.publicUrl, path),
    maxSessions,
    maxSessionsPerCaller,
    sessionIdleTimeoutMs: nonNegative(
      options.sessionIdleTimeoutMs,
      30 * 60_000,
      "sessionIdleTimeoutMs",
    ),
    retryMs: timerPeriod(options.retryMs, 1000, "retryMs"),
    keepAliveMs: timerPeriod(options.keepAliveMs, 15_000, "keepAliveMs"),
    replayMaxEvents: positive(options.replay?.maxEvents, 500, "replay.maxEvents"),
    replayMaxBytes: positive(options.replay?.maxBytes, 4 * MIB, "replay.maxBytes"),
    replayMaxTotalBytes: positive(
      options.replay?.maxTotalBytes,
      heapQuarter(),
      "replay.maxTotalBytes",
    ),
  };
}

/** The names a Host header may give, lower-cased; undefined when "*" accepts any. */
function allowedHostSet(hosts: readonly string[]): ReadonlySet<string> | undefined {
  if (hosts.length === 0) {
    throw new TypeError(
      "allowedHosts is empty, which would refuse every request (403), loopback included; list the names clients send in the Host header, or leave it out to accept the loopback names",
    );
  }
  const names = hosts.map(allowedHost);
  return names.includes("*") ? undefined : new Set(names);
}

/** The endpoint's public URL: as given, without a trailing slash; an origin alone gets `path`. */
function publicEndpoint(value: string | undefined, path: string): string | undefined {
  if (value === undefined) return undefined;
  const url = new URL(absoluteUrl(value, "publicUrl", "https://mcp.example.com/mcp"));
  const pathname = url.pathname.replace(/\/+$/, "");
  return `${url.origin}${pathname === "" ? path : pathname}`;
}
