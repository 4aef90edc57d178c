import { isStatefulVersion, STATEFUL_VERSIONS } from "../../protocol/versions.js";
import { LOOPBACK_HOSTS, type ResolvedHttpOptions } from "../../settings/http-options.js";
import { type HeaderMap, headerOf, type RequestHead, type ResponseHeaders } from "./exchange.js";
import { TRANSPORT_ERROR } from "./responses.js";

/** Why a request is turned away before it reaches a session. */
export interface Refusal {
  status: number;
  code: number;
  message: string;
  headers?: ResponseHeaders;
}

const LOOPBACK: ReadonlySet<string> = new Set(LOOPBACK_HOSTS);

function refuse(status: number, message: string, headers?: ResponseHeaders): Refusal {
  return headers
    ? { status, code: TRANSPORT_ERROR, message, headers }
    : { status, code: TRANSPORT_ERROR, message };
}

/** "localhost:3000" → "localhost", "[::1]:3000" → "[::1]". */
export function hostnameOf(host: string): string {
  const end = host.startsWith("[") ? host.indexOf("]") + 1 : host.lastIndexOf(":");
  return (end > 0 ? host.slice(0, end) : host).toLowerCase();
}

/**
 * A request with more than one Host is refused (RFC 9112, section 3.2): a
 * proxy in front may have routed it by one and this server check the other.
 * node:http keeps the first in `headers` and every one in `rawHeaders`; Bun
 * joins them with ", " (a host name holds no comma); Deno answers 400 itself.
 */
export function checkSingleHost(req: RequestHead): Refusal | undefined {
  let hosts = 0;
  const raw = req.rawHeaders;
  if (raw) {
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i] as string;
      if (name.length === 4 && name.toLowerCase() === "host") hosts++;
    }
  } else {
    hosts = headerOf(req.headers, "host")?.split(",").length ?? 0;
  }
  if (hosts <= 1) return undefined;
  return refuse(
    400,
    `Bad Request: the request has ${hosts} Host headers; send exactly one (RFC 9112, section 3.2)`,
  );
}

/**
 * DNS rebinding protection: a page on another site must not reach this server
 * through a name that resolves to it. The Host must be one we serve; an Origin,
 * when sent, must be listed in allowedOrigins or name an allowed host (a
 * loopback one when any Host is accepted). An Origin that merely equals the
 * Host proves nothing: a rebound page sends exactly that.
 */
export function checkHostAndOrigin(
  headers: HeaderMap,
  options: ResolvedHttpOptions,
): Refusal | undefined {
  const host = headerOf(headers, "host");
  const allowedHosts = options.allowedHosts;
  if (allowedHosts && (host === undefined || !allowedHosts.has(hostnameOf(host)))) {
    return refuse(
      403,
      `Forbidden: Host "${host ?? ""}" is not allowed (DNS rebinding protection); add its hostname to allowedHosts to accept it`,
    );
  }
  const origin = headerOf(headers, "origin");
  if (origin === undefined || options.allowedOrigins.has(origin)) return undefined;
  let originHost: string;
  try {
    originHost = hostnameOf(new URL(origin).host);
  } catch {
    originHost = "";
  }
  if (originHost !== "" && (allowedHosts ?? LOOPBACK).has(originHost)) return undefined;
  return refuse(
    403,
    `Forbidden: Origin "${origin}" is not allowed; add it to allowedOrigins to accept requests from that page`,
  );
}

/** The media type of a Content-Type value, without parameters, in lower case. */
export function mediaType(value: string | undefined): string {
  if (value === undefined) return "";
  const semicolon = value.indexOf(";");
  return (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}

/** The charset parameter of a Content-Type value, unquoted, as sent; undefined when there is none. */
export function charsetOf(value: string): string | undefined {
  for (const parameter of value.split(";").slice(1)) {
    const equals = parameter.indexOf("=");
    if (equals === -1 || parameter.slice(0, equals).trim().toLowerCase() !== "charset") continue;
    return parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1");
  }
  return undefined;
}

/** JSON is UTF-8 (RFC 8259): a body declared in another charset would be read wrong. */
export function checkJsonContentType(headers: HeaderMap): Refusal | undefined {
  const contentType = headerOf(headers, "content-type");
  if (contentType === undefined || mediaType(contentType) !== "application/json") {
    return refuse(
      415,
      `Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json (got ${JSON.stringify(contentType ?? "none")})`,
    );
  }
  const charset = contentType.includes(";") ? charsetOf(contentType) : undefined;
  if (charset === undefined || /^utf-?8$/i.test(charset)) return undefined;
  return refuse(
    415,
    `Unsupported Media Type: send the JSON-RPC message in UTF-8, as Content-Type: application/json or application/json; charset=utf-8 (got charset ${JSON.stringify(charset)})`,
  );
}

/** True when an Accept value admits `type` ("text/event-stream"), wildcards included. */
export function accepts(accept: string, type: string): boolean {
  const slash = type.indexOf("/");
  const family = `${type.slice(0, slash)}/*`;
  for (const range of accept.split(",")) {
    const media = mediaType(range);
    if (media === type || media === family || media === "*/*") return true;
  }
  return false;
}

// Clients send the same Accept on every request: remember the last verdict.
let lastPostAccept: string | undefined;

export function checkPostAccept(headers: HeaderMap): Refusal | undefined {
  const accept = headerOf(headers, "accept");
  if (accept !== undefined && accept === lastPostAccept) return undefined;
  if (
    accept !== undefined &&
    accepts(accept, "application/json") &&
    accepts(accept, "text/event-stream")
  ) {
    lastPostAccept = accept;
    return undefined;
  }
  return refuse(
    406,
    `Not Acceptable: a POST must send Accept: application/json, text/event-stream (got ${JSON.stringify(accept ?? "none")})`,
  );
}

export function checkGetAccept(headers: HeaderMap): Refusal | undefined {
  const accept = headerOf(headers, "accept");
  if (accept !== undefined && accepts(accept, "text/event-stream")) return undefined;
  return refuse(
    406,
    `Not Acceptable: a GET opens an event stream, so it must send Accept: text/event-stream (got ${JSON.stringify(accept ?? "none")})`,
  );
}

/** A 2025 request's MCP-Protocol-Version, when sent, must be a revision this server speaks. */
export function checkProtocolVersion(req: RequestHead): Refusal | undefined {
  const version = headerOf(req.headers, "mcp-protocol-version");
  if (version === undefined || isStatefulVersion(version)) return undefined;
  return {
    status: 400,
    code: TRANSPORT_ERROR,
    message: `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version)}; this server speaks ${STATEFUL_VERSIONS.join(", ")}`,
  };
}
