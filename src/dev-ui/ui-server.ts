import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "../index.js";
import type { ReloadOutcome } from "../loader/dev/index.js";
import type { LoadProblem } from "../loader/index.js";
import { resolveHttpOptions } from "../settings/http-options.js";
import { sameSecret } from "../transports/http/auth/gate.js";
import { listenError } from "../transports/http/binding.js";
import { createHttpHandler } from "../transports/http/handler.js";
import { sendError, TRANSPORT_ERROR } from "../transports/http/responses.js";
import { checkHostAndOrigin, checkSingleHost } from "../transports/http/security.js";
import { SseConnection } from "../transports/http/sse.js";
import { pageHtml, sandboxHtml, viewPolicy } from "./page-html.js";
import { type DevReport, FailingFiles, reportedDefinitions } from "./report.js";

export interface DevUiOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The server directory, as the user named it. */
  dir: string;
  /** What the initial load found. */
  problems: readonly LoadProblem[];
}

export interface DevUi {
  /** The page, with this run's secret in its path. */
  readonly url: string;
  /** Tells open pages what a reload did; `failing`: the files whose last load failed. */
  reloaded(outcome: ReloadOutcome, failing: readonly string[]): void;
  close(): Promise<void>;
}

const HOST = "127.0.0.1";
const KEEP_ALIVE_MS = 15_000;
// From dist/dev-ui/ or dist/chunks/ alike (the page is built into dist/dev-ui/page/).
const ASSETS = new URL("../dev-ui/page/", import.meta.url);
const FILES: Record<string, string> = {
  "page.js": "text/javascript; charset=utf-8",
  "page.css": "text/css; charset=utf-8",
  "sandbox.js": "text/javascript; charset=utf-8",
};
const WRONG_SECRET =
  "Forbidden: this address needs the secret of this run; open the address mcp-dir dev printed";

/**
 * `mcp-dir dev --ui`: a page on 127.0.0.1 beside the server. The page is an
 * MCP client of the very server `dev` runs, reached at `/mcp` through the
 * one HTTP door (its Host, Origin and bearer checks; the run's secret is the
 * bearer token), whatever transport `dev` serves clients on. Under
 * `/<secret>/` it gets its assets, the views' sandbox proxy, and `report`:
 * an event stream of what MCP does not say (files, exports, middleware,
 * problems), sent again after each reload.
 */
export async function startDevUi(server: McpServer, options: DevUiOptions): Promise<DevUi> {
  const secret = randomBytes(24).toString("base64url");
  const mcp = createHttpHandler(server, { authToken: secret });
  const hostOptions = resolveHttpOptions({});
  const failing = new FailingFiles(options.problems);
  const streams = new Set<SseConnection>();
  const { name, version } = server.serverInfo();
  const report = (reload?: DevReport["reload"]): string =>
    JSON.stringify({
      server: { name, version, dir: options.dir },
      definitions: reportedDefinitions(server),
      problems: failing.problems,
      ...(reload && { reload }),
    } satisfies DevReport);

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refusal = checkSingleHost(req) ?? checkHostAndOrigin(req.headers, hostOptions);
    if (refusal) {
      sendError(res, refusal.status, refusal.code, refusal.message);
      return;
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    const [, given = "", asset = "", ...rest] = url.pathname.split("/");
    if (!sameSecret(given, secret)) {
      sendError(res, 403, TRANSPORT_ERROR, WRONG_SECRET);
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      sendError(res, 405, TRANSPORT_ERROR, "Method Not Allowed: use GET", { allow: "GET, HEAD" });
      return;
    }
    const type = FILES[asset];
    if (rest.length > 0) {
      sendError(res, 404, TRANSPORT_ERROR, "Not Found");
    } else if (asset === "") {
      send(res, "text/html; charset=utf-8", pageHtml());
    } else if (asset === "sandbox.html") {
      const csp = url.searchParams.get("csp") ?? "{}";
      send(res, "text/html; charset=utf-8", sandboxHtml(), {
        "content-security-policy": viewPolicy(csp),
      });
    } else if (asset === "report") {
      const stream = new SseConnection(res, { "cache-control": "no-store" }, (closed) =>
        streams.delete(closed),
      );
      streams.add(stream);
      stream.event(undefined, report());
    } else if (type !== undefined) {
      send(res, type, await readFile(new URL(asset, ASSETS)));
    } else {
      sendError(res, 404, TRANSPORT_ERROR, "Not Found");
    }
  };

  const listener = createServer((req, res) => {
    mcp.handle(req, res, () => {
      answer(req, res).catch((error: unknown) => {
        sendError(res, 500, TRANSPORT_ERROR, `Internal Server Error: ${(error as Error).message}`);
      });
    });
  });
  const port = options.port ?? 0;
  await new Promise<void>((resolve, reject) => {
    listener.once("error", (error) => reject(listenError(error, HOST, port)));
    listener.listen(port, HOST, () => resolve());
  });
  const keepAlive = setInterval(() => {
    for (const stream of streams) stream.comment("keep-alive");
  }, KEEP_ALIVE_MS);
  keepAlive.unref();
  const { port: bound } = listener.address() as AddressInfo;

  return {
    url: `http://${HOST}:${bound}/${secret}/`,
    reloaded(outcome, failingFiles) {
      failing.reloaded(outcome, failingFiles);
      const { applied, removed, problems, ms } = outcome;
      const data = report({ applied, removed, problems: problems.length, ms: Math.round(ms) });
      for (const stream of streams) stream.event(undefined, data);
    },
    async close() {
      clearInterval(keepAlive);
      for (const stream of streams) stream.end();
      const stopped = new Promise<void>((resolve) => listener.close(() => resolve()));
      await mcp.close();
      listener.closeAllConnections();
      await stopped;
    },
  };
}

function send(
  res: ServerResponse,
  type: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(200, {
    "content-type": type,
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
    // The page's address holds the secret: it must not leave in a Referer.
    "referrer-policy": "no-referrer",
    ...headers,
  });
  res.end(body);
}
