import { type HeaderMap, headerOf, type ResponseWriter } from "./exchange.js";

/** What a page may read of a response besides the basics: the session, the revision, an OAuth challenge. */
const EXPOSED = "mcp-session-id, mcp-protocol-version, www-authenticate";
/** How long a browser may keep a preflight's answer: 2 hours, Chromium's ceiling. */
const PREFLIGHT_MAX_AGE_S = "7200";

/**
 * Lets a browser page read the response. Called only once the door accepted
 * the request's Origin (`checkHostAndOrigin`): a page of another site is
 * refused before, and gets nothing to read.
 */
export function allowOrigin(headers: HeaderMap, res: ResponseWriter): void {
  const origin = headerOf(headers, "origin");
  if (origin === undefined) return;
  res.setHeader("access-control-allow-origin", origin);
  res.setHeader("access-control-expose-headers", EXPOSED);
  res.setHeader("vary", "Origin");
}

/**
 * OPTIONS: a browser's preflight (or a client asking what the path takes),
 * answered before any token is checked, since a preflight never carries one.
 * The headers asked for are allowed as asked: the 2026-07-28 `Mcp-Param-*`
 * names are a tool's own, and only an accepted Origin gets this far.
 */
export function answerPreflight(headers: HeaderMap, res: ResponseWriter, methods: string): void {
  const requested = headerOf(headers, "access-control-request-headers");
  res.writeHead(204, {
    allow: `${methods}, OPTIONS`,
    "access-control-allow-methods": methods,
    ...(requested !== undefined && { "access-control-allow-headers": requested }),
    "access-control-max-age": PREFLIGHT_MAX_AGE_S,
  });
  res.end();
}
