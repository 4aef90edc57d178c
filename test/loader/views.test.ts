import { afterAll, describe, expect, it } from "vitest";
import type { ResourceDefinition } from "../../src/define/index.js";
import {
  formatProblem,
  formatWarning,
  loadDirectory,
  loadFile,
  scanDirectory,
} from "../../src/loader/index.js";
import { fakeContext } from "../define/helpers.js";
import { createServerDir, removeServerDirs } from "./helpers/server-dir.js";

afterAll(removeServerDirs);

/** A one-pixel PNG. */
const DOT = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

/** The one view a file gives, and its page. */
async function loadedView(dir: string, file: string) {
  const load = await loadFile(dir, file);
  expect(load.problems.map(formatProblem)).toEqual([]);
  const definition = load.entries[0]?.definition as ResourceDefinition;
  const read = await definition.read({ uri: "", params: {} } as never, fakeContext());
  return { load, definition, html: (read as { text: string }).text };
}

describe("views/: a script view", () => {
  it("becomes one self-contained page: its modules, packages, CSS and images inline", async () => {
    const dir = await createServerDir({
      "views/chart.tsx": `/*---
title: Sales chart
description: Bars of the month's sales
---*/
import "./chart.css";
import { label } from "./_bars.ts";
import { shout } from "tiny-lib";
document.getElementById("root")!.textContent = shout(label(3));
`,
      "views/_bars.ts": 'export const label = (n: number) => "bars: " + "#".repeat(n);\n',
      "views/chart.css": "body { background: url(./dot.png); color: rebeccapurple; }\n",
      "views/dot.png": DOT,
      "node_modules/tiny-lib/package.json": JSON.stringify({ name: "tiny-lib", main: "index.js" }),
      "node_modules/tiny-lib/index.js": "exports.shout = (text) => text.toUpperCase() + '!';\n",
    });
    const { definition, html } = await loadedView(dir, "views/chart.tsx");
    expect(definition).toMatchObject({
      uri: "ui://chart",
      name: "chart",
      title: "Sales chart",
      description: "Bars of the month's sales",
      mimeType: "text/html;profile=mcp-app",
    });
    expect(definition).not.toHaveProperty("size");
    expect(html.startsWith("<!doctype html>\n")).toBe(true);
    expect(html).toContain("<title>Sales chart</title>");
    expect(html).toContain('<div id="root"></div>');
    expect(html).toMatch(/<style>\n[^<]*url\(data:image\/png;base64,[^<]*color:#639/);
    const script = /<script type="module">\n([^<]*)<\/script>/.exec(html)?.[1];
    expect(script).toContain("bars: ");
    expect(script).toContain(".toUpperCase()");
    // Nothing left for the host to fetch.
    expect(html).not.toMatch(/\s(src|href)=/);
  });

  it("is named and addressed by its path in views/; only views load there, not what they import", async () => {
    const dir = await createServerDir({
      "views/weather.html": "<p>weather</p>\n",
      "views/charts/Bar chart.ts": 'document.body.textContent = "bars";\n',
      "views/charts/style.css": "p { color: red; }\n",
      "views/_shared.ts": "export const x = 1;\n",
      "views/logo.png": DOT,
    });
    const { files } = await scanDirectory(dir);
    expect(files).toEqual(["views/charts/Bar chart.ts", "views/weather.html"]);
    const load = await loadDirectory(dir);
    expect(load.problems).toEqual([]);
    const listed = [...load.sources.values()]
      .flat()
      .map(({ definition }) => definition as ResourceDefinition)
      .map(({ uri, name, title }) => ({ uri, name, title }));
    expect(listed).toEqual([
      { uri: "ui://charts/Bar%20chart", name: "charts_Bar chart", title: "Bar chart" },
      { uri: "ui://weather", name: "weather", title: "Weather" },
    ]);
  });
});

describe("views/: an HTML view", () => {
  it("is served as written, less its front matter, whose settings become its _meta.ui", async () => {
    const dir = await createServerDir({
      "views/map.html": `---
description: A map
csp:
  connectDomains: [https://tiles.example.com]
  resourceDomains: https://*.example.com
permissions: [geolocation, clipboardWrite]
domain: maps.example.com
prefersBorder: false
---
<!doctype html>
<html><body><div id="map"></div></body></html>
`,
      "views/plain.html": "<!doctype html>\n<p>---</p>\n",
    });
    const map = await loadedView(dir, "views/map.html");
    const ui = {
      csp: {
        connectDomains: ["https://tiles.example.com"],
        resourceDomains: ["https://*.example.com"],
      },
      permissions: { geolocation: {}, clipboardWrite: {} },
      domain: "maps.example.com",
      prefersBorder: false,
    };
    expect(map.definition).toMatchObject({ description: "A map", _meta: { ui } });
    expect(map.html).toBe('<!doctype html>\n<html><body><div id="map"></div></body></html>\n');
    const read = await map.definition.read({} as never, fakeContext());
    expect(read).toEqual({ text: map.html, _meta: { ui } });
    const plain = await loadedView(dir, "views/plain.html");
    expect(plain.html).toBe("<!doctype html>\n<p>---</p>\n");
    expect(plain.definition).not.toHaveProperty("_meta");
  });
});

describe("views/ with mistakes", () => {
  it("reports each front matter mistake, in HTML and in a script view's comment", async () => {
    const dir = await createServerDir({
      "views/unclosed.ts": "/*---\ntitle: never closed\n*/\nexport {};\n",
      "views/bad-yaml.tsx": "/*---\ntitle: [unclosed\n---*/\nexport {};\n",
      "views/csp.html":
        "---\ncsp:\n  connectDomains: [api.example.com, 'https://ok.example.com', 'https://a.com; script-src *']\n---\n<p></p>\n",
      "views/kinds.html":
        "---\ntitle: 3\nprefersBorder: yes please\npermissions: [camera, telepathy]\ncsp: https://x.com\n---\n<p></p>\n",
    });
    const load = await loadDirectory(dir);
    expect(load.problems.map(formatProblem)).toEqual([
      "views/bad-yaml.tsx: front matter is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] (2:8, where it opens)",
      `views/csp.html: front matter "csp.connectDomains" must list origins, such as "https://api.example.com" or "https://*.example.com"; got "api.example.com", "https://a.com; script-src *"`,
      'views/kinds.html: front matter "title" must be text, got 3',
      'views/kinds.html: front matter "prefersBorder" must be true or false, got "yes please"',
      `views/kinds.html: front matter "csp" must map connectDomains, resourceDomains, frameDomains or baseUriDomains to lists of origins, such as:
    csp:
      connectDomains: ["https://api.example.com"]`,
      'views/kinds.html: front matter "permissions" lists what the view asks for, of camera, microphone, geolocation, clipboardWrite; got "telepathy"',
      'views/unclosed.ts: front matter is not closed: end the comment with a line of "---*/"',
    ]);
  });

  it("warns of front matter keys it does not use", async () => {
    const dir = await createServerDir({
      "views/typo.html": "---\ntitel: Typo\ncsp:\n  connect: [https://x.com]\n---\n<p></p>\n",
    });
    const load = await loadFile(dir, "views/typo.html");
    expect(load.problems).toEqual([]);
    expect(load.warnings.map(formatWarning)).toEqual([
      'views/typo.html: front matter key "titel" is not used; the keys are title, description, csp, permissions, domain, prefersBorder',
      'views/typo.html: front matter key "csp.connect" is not used; the keys are connectDomains, resourceDomains, frameDomains, baseUriDomains',
    ]);
  });

  it("reports what stops a script view's build with its place, in the view or a file it imports", async () => {
    const dir = await createServerDir({
      "views/syntax.ts": "const a = ;\n",
      "views/helper.ts": 'import { x } from "./_broken.ts";\nconsole.log(x);\n',
      "views/_broken.ts": "export const x = {\n",
      "views/missing.ts": 'import pad from "left-pad";\nconsole.log(pad("x", 3));\n',
    });
    const load = await loadDirectory(dir);
    expect(load.problems.map(formatProblem)).toEqual([
      "views/helper.ts: cannot be built: Expected identifier but found end of file (views/_broken.ts:2:1)",
      'views/missing.ts: cannot be built: Could not resolve "left-pad"; install it in the server directory (npm install) (1:17)',
      'views/syntax.ts: cannot be built: Unexpected ";" (1:11)',
    ]);
  });
});
