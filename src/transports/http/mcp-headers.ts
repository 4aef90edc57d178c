import type { JsonRpcRequest } from "../../jsonrpc/index.js";
import { mirroredParams } from "../../protocol/mcp-param.js";
import { claimedVersion } from "../../protocol/meta.js";
import type { Registry } from "../../registry/registry.js";
import { methodsFor } from "../../server/index.js";
import { type HeaderMap, headerOf } from "./exchange.js";

/**
 * The 2026-07-28 request headers: `MCP-Protocol-Version`, `Mcp-Method`,
 * `Mcp-Name` and the `Mcp-Param-*` headers a tool's `x-mcp-header`
 * parameters ask for, each checked against the body it mirrors. Returns why
 * they disagree, or undefined when they agree.
 */
export function headerMismatch(
  headers: HeaderMap,
  request: JsonRpcRequest,
  registry: Registry,
): string | undefined {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const claimed = claimedVersion(params);
  const version = headerOf(headers, "mcp-protocol-version");
  if (claimed !== undefined && version !== claimed) {
    return version === undefined
      ? "the MCP-Protocol-Version header is missing"
      : `the MCP-Protocol-Version header ${quote(version)} does not match the body's protocol version ${JSON.stringify(claimed)}`;
  }
  const method = headerOf(headers, "mcp-method");
  if (method !== request.method) {
    return method === undefined
      ? "the Mcp-Method header is missing"
      : `the Mcp-Method header ${quote(method)} does not match the body's method ${quote(request.method)}`;
  }
  const named = methodsFor("stateless").get(request.method)?.names;
  if (named === undefined) return undefined;
  const problem = compare(headers, "mcp-name", "Mcp-Name", params[named]);
  if (problem !== undefined || request.method !== "tools/call") return problem;
  const tool = typeof params.name === "string" ? registry.tool(params.name) : undefined;
  if (!tool) return undefined;
  const args = params.arguments;
  for (const { header, path } of mirroredParams(tool.descriptor.inputSchema)) {
    const value = valueAt(args, path);
    const name = `mcp-param-${header.toLowerCase()}`;
    if (value === undefined || value === null) continue;
    const mismatch = compare(headers, name, `Mcp-Param-${header}`, value);
    if (mismatch !== undefined) return mismatch;
  }
  return undefined;
}

function quote(value: string): string {
  return JSON.stringify(value);
}

const SENTINEL = /^=\?base64\?(.*)\?=$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/**
 * A number as the revision has a client write it: decimal digits, a minus
 * sign, a fraction. `Number()` also reads "0x2A", "4.2e1" and "+42" as 42,
 * which a gateway routing on the header need not: such a header does not
 * mirror the body.
 */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
/** Visible ASCII, space and tab: what a header value may carry unencoded. */
const PLAIN = /^[\x20-\x7e\t]*$/;

/** A header value as sent, or the reason it cannot be read. */
function decode(raw: string): { value: string } | { problem: string } {
  if (!PLAIN.test(raw)) return { problem: "has characters a header value may not carry" };
  const encoded = SENTINEL.exec(raw);
  if (!encoded) return { value: raw };
  const body = encoded[1] ?? "";
  if (!BASE64.test(body)) return { problem: "is not valid Base64 inside =?base64?…?=" };
  return { value: Buffer.from(body, "base64").toString("utf8") };
}

function compare(
  headers: HeaderMap,
  key: string,
  label: string,
  expected: unknown,
): string | undefined {
  const raw = headerOf(headers, key);
  if (raw === undefined) return `the ${label} header is missing`;
  const decoded = decode(raw);
  if ("problem" in decoded) return `the ${label} header ${decoded.problem}`;
  const { value } = decoded;
  const matches =
    typeof expected === "number"
      ? DECIMAL.test(value) && Number(value) === expected
      : typeof expected === "boolean"
        ? value === String(expected)
        : value === expected;
  return matches
    ? undefined
    : `the ${label} header ${quote(value)} does not match the body's value ${JSON.stringify(expected)}`;
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
