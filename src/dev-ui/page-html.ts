/**
 * The two documents the UI server sends; their scripts and styles are built
 * into dist/dev-ui/page/ at package build time (scripts/build-ui.mjs).
 */

/** The page: it may frame its views' sandbox (the other loopback name, the same port) and nothing else. */
export function pageHtml(): string {
  const policy = [
    "default-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "style-src 'self' 'unsafe-inline'",
    "frame-src http://localhost:* http://127.0.0.1:*",
    "object-src 'none'",
    "base-uri 'none'",
  ].join("; ");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mcp-dir dev</title><link rel="icon" href="data:,"><link rel="stylesheet" href="page.css">
</head><body><script type="module" src="page.js"></script></body></html>`;
}

/** The sandbox proxy of MCP Apps views: on another origin than the page, it loads the view into an inner frame. */
export function sandboxHtml(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>view sandbox</title>
<style>html, body { margin: 0; height: 100%; } iframe { display: block; border: 0; width: 100%; height: 100%; }</style>
</head><body><script src="sandbox.js"></script></body></html>`;
}

const DOMAIN = /^[\w.:/*[\]-]+$/;

/**
 * The policy a host builds from a view's declared domains (SEP-1865): with
 * none declared, the page's own scripts and styles and no connection
 * anywhere. `declared` is the view's `_meta.ui.csp` as JSON; a domain with
 * anything but URL characters in it is left out.
 */
export function viewPolicy(declared: string): string {
  let csp: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(declared) as unknown;
    if (parsed !== null && typeof parsed === "object") csp = parsed as Record<string, unknown>;
  } catch {
    // No policy declared that can be read: the strictest.
  }
  const list = (key: string) =>
    (Array.isArray(csp[key]) ? (csp[key] as unknown[]) : [])
      .filter((domain): domain is string => typeof domain === "string" && DOMAIN.test(domain))
      .join(" ");
  const resources = list("resourceDomains");
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `connect-src ${list("connectDomains") || "'none'"}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `frame-src ${list("frameDomains") || "'none'"}`,
    "object-src 'none'",
    `base-uri ${list("baseUriDomains") || "'self'"}`,
  ].join("; ");
}
