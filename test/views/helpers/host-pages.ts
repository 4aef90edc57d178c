/**
 * The test host's pages, served by the browser's routes beside the real
 * server: host.html on the server's own origin (so its requests to /mcp are
 * same-origin), and the sandbox proxy on another origin (the same port
 * under the name localhost), with the CSP the view declared as its header.
 */
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { BrowserContext } from "playwright-core";

const HOST_DIR = fileURLToPath(new URL("../host/", import.meta.url));

/** A browser module of test/views/host/, bundled for an inline script. */
async function bundled(file: string): Promise<string> {
  const result = await build({
    entryPoints: [`${HOST_DIR}${file}`],
    bundle: true,
    write: false,
    platform: "browser",
    format: "esm",
    target: "es2022",
    logLevel: "silent",
  });
  return (result.outputFiles[0]?.text ?? "").replace(/<\/script/gi, "<\\/script");
}

const page = (title: string, style: string, body: string, script: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>${style}</style>
</head><body>${body}<script type="module">${script}</script></body></html>`;

const HOST_STYLE = `body { margin: 0; padding: 8px; font-family: sans-serif; }
iframe { border: 0; width: 100%; height: 0; display: block; box-sizing: border-box; }
iframe.bordered { border: 1px solid #d4d4d8; border-radius: 8px; }`;

const SANDBOX_STYLE = "html, body { margin: 0; height: 100%; } iframe { display: block; }";

/**
 * The policy a host builds from a view's declared domains (SEP-1865's
 * construction): with none declared, scripts and styles of the page itself
 * only, and no connection anywhere.
 */
export function viewPolicy(csp: Record<string, string[] | undefined>): string {
  const list = (domains: string[] | undefined) => (domains ?? []).join(" ");
  const resources = list(csp.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `connect-src 'self' ${list(csp.connectDomains)}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `frame-src ${list(csp.frameDomains) || "'none'"}`,
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains) || "'self'"}`,
  ].join("; ");
}

/** Serves host.html and sandbox.html for the server listening on `port`. */
export async function routeHostPages(context: BrowserContext, port: string): Promise<void> {
  const [host, sandbox] = await Promise.all([bundled("host-page.ts"), bundled("sandbox.ts")]);
  await context.route(`http://127.0.0.1:${port}/host.html?*`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: page("Test host", HOST_STYLE, '<div id="views"></div>', host),
    }),
  );
  await context.route(`http://localhost:${port}/sandbox.html?*`, (route) => {
    const csp = JSON.parse(new URL(route.request().url()).searchParams.get("csp") ?? "{}");
    return route.fulfill({
      contentType: "text/html",
      headers: { "Content-Security-Policy": viewPolicy(csp) },
      body: page("Sandbox", SANDBOX_STYLE, "", sandbox),
    });
  });
}
