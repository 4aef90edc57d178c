/**
 * `mcp-dir dev --ui` in a real browser: Debian's chromium, driven by
 * playwright-core, opens the page dev prints, against a copy of
 * example-server served over stdio (so the page's HTTP endpoint is the only
 * one). One dev process serves every case; the cases that save files come
 * last. Plain HTTP requests check what the UI server refuses.
 *
 * MCP_DIR_DEV_UI_SCREENSHOTS=docs writes the README's pictures.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join, resolve } from "node:path";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { viewPolicy } from "../../src/dev-ui/page-html.js";
import { CLI, runCli } from "../cli/helpers/cli.js";
import { copyExampleServer, REPO_ROOT, removeServerDirs } from "../loader/helpers/server-dir.js";
import { WAIT_TIMEOUT_MS } from "../server/helpers/inbox.js";
import { closeBrowsers, launchChromium } from "../views/helpers/chromium.js";

let dir: string;
let dev: ChildProcess;
let stderr = "";
let pageUrl: URL;
let browser: BrowserContext;
let page: Page;

/** Resolves with the first match of `pattern` in dev's stderr. */
function printed(pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(stderr);
      if (match) resolve(match);
      else if (dev.exitCode !== null) reject(new Error(`dev exited; stderr:\n${stderr}`));
      else dev.stderr?.once("data", check);
    };
    check();
  });
}

beforeAll(async () => {
  // A copy of example-server, so that the test can save its files.
  dir = await copyExampleServer();
  // stdin stays open: over stdio, dev serves until it ends.
  dev = spawn(process.execPath, [CLI, "dev", dir, "--ui"], {
    cwd: REPO_ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  dev.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const [, url = ""] = await printed(/the dev UI is at (http:\/\/\S+)\n/);
  pageUrl = new URL(url);
  browser = await launchChromium();
  browser.setDefaultTimeout(WAIT_TIMEOUT_MS);
  page = await browser.newPage();
  await page.setViewportSize({ width: 1100, height: 800 });
  await page.goto(pageUrl.href);
});

afterAll(async () => {
  await closeBrowsers();
  if (dev && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once("close", resolve));
    dev.stdin?.end();
    await exited;
  }
  await removeServerDirs();
});

const card = (key: string): Locator => page.locator(`[data-key="${key}"]`);
/** What the poll's view shows, in its sandbox's frame. */
const pollView = () => card("tool:poll").frameLocator("iframe.view").frameLocator("iframe");

async function open(key: string): Promise<Locator> {
  const found = card(key);
  if ((await found.getAttribute("open")) === null) await found.locator("summary").click();
  return found;
}

/** A picture of the page around `focus`, for the README. */
async function screenshot(name: string, focus: Locator): Promise<void> {
  const folder = process.env.MCP_DIR_DEV_UI_SCREENSHOTS;
  if (!folder) return;
  await focus.evaluate((node) => node.scrollIntoView({ block: "center" }));
  await page.screenshot({ path: resolve(REPO_ROOT, folder, name) });
}

describe("the page of mcp-dir dev --ui", () => {
  it("lists every definition by folder and file, with its export and middleware", async () => {
    await card("tool:calculator").waitFor();
    expect(await page.locator(".folder > h2").allTextContents()).toEqual([
      "prompts/",
      "resources/",
      "tools/",
      "tools/text/",
      "views/",
    ]);
    const teamFile = page.locator('[data-file="tools/team.ts"]');
    expect(await teamFile.locator(".definition .name").allTextContents()).toEqual([
      "team_invite",
      "team_lookup",
    ]);
    expect(await card("tool:team_lookup").locator(".origin").textContent()).toBe("export lookup");
    expect(await card("tool:text_stats").locator(".origin").textContent()).toBe(
      "export default · middleware tools/text/_middleware.ts",
    );
    await page
      .locator('[data-file="views/poll.ts"]')
      .locator('[data-key="resource:ui://poll"]')
      .waitFor();
    await page
      .locator('[data-file="resources/users.ts"] [data-key="template:users://{id}"]')
      .waitFor();
    await page.locator('[data-file="prompts/standup.md"] [data-key="prompt:standup"]').waitFor();
  });

  it("calls calculator from the form of its input schema and shows the result", async () => {
    const calculator = await open("tool:calculator");
    await calculator.getByLabel("operation").selectOption({ label: "multiply" });
    await calculator.getByLabel("a", { exact: true }).fill("6");
    await calculator.getByLabel("b", { exact: true }).fill("7");
    await calculator.getByRole("button", { name: "Call" }).click();
    await expect.poll(() => calculator.locator(".result").textContent()).toBe("42");
    await page.locator(".timeline .happening.call", { hasText: "tools/call calculator" }).waitFor();
  });

  it("shows isError in red", async () => {
    const calculator = await open("tool:calculator");
    await calculator.getByLabel("operation").selectOption({ label: "divide" });
    await calculator.getByLabel("b", { exact: true }).fill("0");
    await calculator.getByRole("button", { name: "Call" }).click();
    const error = calculator.locator(".result.error");
    await error.waitFor();
    expect(await error.textContent()).toBe("isErrorCannot divide by zero");
    const colour = await error.evaluate((node) => {
      const { getComputedStyle } = globalThis as unknown as {
        getComputedStyle(element: typeof node): { color: string };
      };
      return getComputedStyle(node).color;
    });
    expect(colour).toBe("rgb(185, 28, 28)");
  });

  it("asks an elicitation as a form, and the answer completes the call", async () => {
    const invite = await open("tool:team_invite");
    await invite.getByLabel("email").fill("ada@example.com");
    await invite.getByRole("button", { name: "Call" }).click();
    const dialog = page.getByRole("dialog", { name: "The server asks" });
    await dialog.waitFor();
    expect(await dialog.locator("p").first().textContent()).toBe(
      "Which team should ada@example.com join, and with which role?",
    );
    await dialog.getByLabel("team").selectOption({ label: "platform" });
    await dialog.getByLabel("role").selectOption({ label: "admin" });
    await screenshot("dev-ui-elicitation.png", invite);
    await dialog.getByRole("button", { name: "Accept" }).click();
    await expect
      .poll(() => invite.locator(".result").textContent())
      .toBe("Invited ada@example.com to platform as an admin.");
    await dialog.waitFor({ state: "detached" });
  });

  it("renders a tool's view in its sandbox, as a host does", async () => {
    const poll = await open("tool:poll");
    await poll.getByLabel("question").fill("Lunch?");
    for (const option of ["pizza", "sushi"]) {
      await poll.getByRole("button", { name: "add options" }).click();
      await poll.locator(".items input").last().fill(option);
    }
    await poll.getByRole("button", { name: "Call" }).click();
    // In sight before it draws, so that a picture of the page shows it drawn.
    await poll.locator("iframe.view").scrollIntoViewIfNeeded();
    const view = poll.frameLocator("iframe.view").frameLocator("iframe");
    await view.locator(".votes", { hasText: "0 votes" }).first().waitFor();
    expect(await view.getByRole("button").allTextContents()).toEqual(["pizza", "sushi"]);
    await poll.locator(".structured > .tree").waitFor();
    await screenshot("dev-ui.png", poll.locator("iframe.view"));
  });
});

describe("the page follows saves without reloading", () => {
  const echo = (body: string) => `import { defineTool } from "mcp-dir";
${body}
export default defineTool({
  description: "Echoes its text",
  input: { text: z.string() },
  handler: ({ text }) => text,
});
`;

  it("shows a new tool, a broken file's error where its tool is, and clears it once fixed", async () => {
    // Typed and not sent: it must still be there after every save.
    const calculator = await open("tool:calculator");
    await calculator.getByLabel("a", { exact: true }).fill("41");
    await page.evaluate(() => Object.assign(globalThis, { sameDocument: true }));

    await writeFile(join(dir, "tools", "echo.ts"), echo('import { z } from "zod";'));
    const file = page.locator('[data-file="tools/echo.ts"]');
    await file.locator('[data-key="tool:echo"]').waitFor();
    await page
      .locator(".timeline .happening.reload", { hasText: "tools/echo.ts" })
      .first()
      .waitFor();

    await writeFile(join(dir, "tools", "echo.ts"), echo(""));
    const problem = file.locator(".problem");
    await problem.waitFor();
    expect(await problem.textContent()).toBe(
      "threw while loading: ReferenceError: z is not defined (5:18)",
    );
    // The last good version stays in service, under its error.
    expect(await file.locator('[data-key="tool:echo"]').count()).toBe(1);
    await screenshot("dev-ui-problem.png", file);

    await writeFile(join(dir, "tools", "echo.ts"), echo('import { z } from "zod";'));
    await problem.waitFor({ state: "detached" });
    expect(await page.evaluate(() => (globalThis as { sameDocument?: boolean }).sameDocument)).toBe(
      true,
    );
    expect(await calculator.getByLabel("a", { exact: true }).inputValue()).toBe("41");
    // The poll's view, shown above in the folder a file came to and went from, still shows.
    const poll = pollView();
    expect(await poll.locator(".votes").allTextContents()).toEqual(["0 votes", "0 votes"]);
  });

  it("renders a shown view again when it is saved, with its call's input and result", async () => {
    // The poll's view, as the view test above left it: shown, with its result.
    const poll = await open("tool:poll");
    const view = poll.frameLocator("iframe.view").frameLocator("iframe");
    await view.locator(".votes", { hasText: "0 votes" }).first().waitFor();
    await page
      .locator(".timeline .happening", { hasText: "listening for updates of ui://poll" })
      .first()
      .waitFor();
    const file = join(dir, "views", "poll.ts");
    const source = await readFile(file, "utf8");
    await writeFile(file, source.replace("} vote${", "} ballot${"));
    // The view's frame is made anew (its own process, as a sandbox on another origin is): a
    // wait begun in the frame it replaces ends with that frame, and is begun again in the new one.
    await vi.waitFor(
      async () => {
        expect(await view.locator(".votes").first().textContent({ timeout: 5_000 })).toBe(
          "0 ballots",
        );
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(await view.getByRole("button").allTextContents()).toEqual(["pizza", "sushi"]);
    expect(await view.locator("h1").textContent()).toBe("Lunch?");
  });

  it("tells a view its call was cancelled when the call fails, rather than leaving it waiting", async () => {
    // A tool only a task may run: this page's client runs none, so the server refuses the call.
    await writeFile(
      join(dir, "tools", "batch.ts"),
      'import { defineTool } from "mcp-dir";\nexport default defineTool({ description: "Batch", task: "required", handler: () => "done" });\n',
    );
    await writeFile(
      join(dir, "views", "batch.html"),
      `<!doctype html><html><body><p id="heard"></p><script>
  const heard = document.getElementById("heard");
  parent.postMessage({ jsonrpc: "2.0", id: 1, method: "ui/initialize", params: {
    appInfo: { name: "batch", version: "1" }, appCapabilities: {}, protocolVersion: "2026-01-26" } }, "*");
  addEventListener("message", ({ data }) => {
    if (data.id === 1) parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/initialized" }, "*");
    else if (data.method?.startsWith("ui/notifications/tool-")) heard.textContent += \`\${data.method} \`;
  });
</script></body></html>
`,
    );
    const batch = card("tool:batch");
    await batch.waitFor();
    await batch.locator("summary").click();
    await batch.getByRole("button", { name: "Call" }).click();
    await batch.locator(".outcome .result.error").waitFor();
    const view = batch.frameLocator("iframe.view").frameLocator("iframe");
    await expect
      .poll(() => view.locator("#heard").textContent())
      .toBe("ui/notifications/tool-input ui/notifications/tool-cancelled ");
  });

  it("grants a view the permissions it asks for, and only those, as it tells the view", async () => {
    await writeFile(
      join(dir, "tools", "where.ts"),
      'import { defineTool } from "mcp-dir";\nexport default defineTool({ description: "Where", handler: () => "here" });\n',
    );
    await writeFile(
      join(dir, "views", "where.html"),
      `---
permissions: [geolocation]
---
<!doctype html><html><body><p id="allowed"></p><p id="granted"></p><script>
  const policy = document.featurePolicy;
  document.getElementById("allowed").textContent = ["geolocation", "camera"]
    .map((feature) => \`\${feature} \${policy.allowsFeature(feature)}\`).join(", ");
  parent.postMessage({ jsonrpc: "2.0", id: 1, method: "ui/initialize", params: {
    appInfo: { name: "where", version: "1" }, appCapabilities: {}, protocolVersion: "2026-01-26" } }, "*");
  addEventListener("message", ({ data }) => {
    if (data.id === 1) {
      const granted = Object.keys(data.result.hostCapabilities.sandbox?.permissions ?? {});
      document.getElementById("granted").textContent = granted.join(", ");
      parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/initialized" }, "*");
    }
  });
</script></body></html>
`,
    );
    const where = card("tool:where");
    await where.waitFor();
    await where.locator("summary").click();
    await where.getByRole("button", { name: "Call" }).click();
    const view = where.frameLocator("iframe.view").frameLocator("iframe");
    await expect.poll(() => view.locator("#granted").textContent()).toBe("geolocation");
    expect(await view.locator("#allowed").textContent()).toBe("geolocation true, camera false");
  });

  it("stops following a shown view once its tool is gone, and says when no view is left", async () => {
    // The newest of the timeline's lines about the listen stream of the views shown.
    const listening = () =>
      page
        .locator(".timeline .happening .what", { hasText: /listening for updates of/ })
        .first()
        .textContent();
    // The views of poll, batch and where, as the cases above left them: shown, and followed.
    await expect
      .poll(listening, { timeout: WAIT_TIMEOUT_MS })
      .toBe("listening for updates of ui://poll, ui://batch, ui://where");

    await rm(join(dir, "tools", "where.ts"));
    await card("tool:where").waitFor({ state: "detached" });
    await expect
      .poll(listening, { timeout: WAIT_TIMEOUT_MS })
      .toBe("listening for updates of ui://poll, ui://batch");

    const poll = join(dir, "tools", "poll.ts");
    const source = await readFile(poll, "utf8");
    await rm(join(dir, "tools", "batch.ts"));
    await rm(poll);
    await expect
      .poll(listening, { timeout: WAIT_TIMEOUT_MS })
      .toBe("stopped listening for updates of views: none is shown");

    // Back as example-server has it, for what comes after.
    await writeFile(poll, source);
    await card("tool:poll").waitFor();
  });

  it("gives up a view still on its way when its tool goes, and hears from it no more", async () => {
    // The page's listeners of window messages: one for each view's bridge, and one for a view
    // whose frame is not ready yet.
    const cdp = await browser.newCDPSession(page);
    const messageListeners = async () => {
      const { result } = await cdp.send("Runtime.evaluate", { expression: "window" });
      const objectId = result.objectId ?? "";
      const { listeners } = await cdp.send("DOMDebugger.getEventListeners", { objectId });
      await cdp.send("Runtime.releaseObject", { objectId });
      return listeners.filter((listener) => listener.type === "message").length;
    };
    // The tools of the views shown are gone (the case above): their bridges are closed.
    await expect.poll(messageListeners, { timeout: WAIT_TIMEOUT_MS }).toBe(0);

    await writeFile(
      join(dir, "tools", "stuck.ts"),
      'import { defineTool } from "mcp-dir";\nexport default defineTool({ description: "Stuck", handler: () => "done" });\n',
    );
    // A view that never says it is initialized: the page waits on it.
    await writeFile(
      join(dir, "views", "stuck.html"),
      '<!doctype html><html><body><p id="loaded">loaded</p></body></html>\n',
    );
    const stuck = card("tool:stuck");
    await stuck.waitFor();
    await stuck.locator("summary").click();
    await stuck.getByRole("button", { name: "Call" }).click();
    await stuck
      .frameLocator("iframe.view")
      .frameLocator("iframe")
      .locator("#loaded")
      .waitFor({ state: "attached" });
    expect(await messageListeners()).toBe(1);

    await rm(join(dir, "tools", "stuck.ts"));
    await stuck.waitFor({ state: "detached" });
    await expect.poll(messageListeners, { timeout: WAIT_TIMEOUT_MS }).toBe(0);
  });
});

describe("the page reads a resource template", () => {
  it("builds the URI of a prefix and exploded lists as RFC 6570 expands them", async () => {
    await writeFile(
      join(dir, "resources", "notes.ts"),
      `import { defineResource } from "mcp-dir";
export default defineResource({
  uriTemplate: "notes://{id:3}{/path*}{?tags*}",
  mimeType: "application/json",
  read: ({ params }) => params,
});
`,
    );
    const notes = await open("template:notes://{id:3}{/path*}{?tags*}");
    expect(await notes.locator(".field .hint").allTextContents()).toEqual([
      "at most 3 characters: a longer value is cut to its first 3",
      'a list: items separated by "," (an item\'s own "," as %2C)',
      'a list: items separated by "," (an item\'s own "," as %2C)',
    ]);
    await notes.getByLabel("id", { exact: true }).fill("abcdef");
    await notes.getByLabel("path", { exact: true }).fill("src,a b.ts");
    await notes.getByLabel("tags", { exact: true }).fill("x,y%2Cz");
    await notes.getByRole("button", { name: "Read" }).click();
    const read = notes.locator(".result .contents");
    await read.waitFor();
    // The prefix keeps the first 3 characters of what was typed, as RFC 6570 has it.
    expect(await read.locator(".uri code").textContent()).toBe(
      "notes://abc/src/a%20b.ts?tags=x&tags=y%2Cz",
    );
    expect(JSON.parse((await read.locator("pre.text").textContent()) ?? "")).toEqual({
      id: "abc",
      path: "src,a b.ts",
      tags: "x,y%2Cz",
    });
  });
});

describe("--ui and --ui-port on the command line", () => {
  it.each([
    [["--ui-port", "4000"], "--ui-port needs --ui"],
    [["--ui", "--ui-port", "web"], "--ui-port must be a number from 0 to 65535, got 'web'"],
  ])("mcp-dir dev %j is a usage error", async (flags, message) => {
    const { code, stderr } = await runCli(["dev", "example-server", ...flags]);
    expect(code).toBe(2);
    expect(stderr).toBe(`mcp-dir: ${message}. See 'mcp-dir dev --help'\n`);
  });
});

/** A plain GET to the UI server, as another page or program would send it. */
function get(
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: pageUrl.hostname, port: pageUrl.port, path, method, headers },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}

describe("the policy of a view's sandbox", () => {
  it("lets a view that declares no domains connect nowhere, as the extension's default has it", () => {
    expect(viewPolicy("{}")).toContain("connect-src 'none';");
    expect(viewPolicy("{}")).toContain("frame-src 'none';");
  });

  it("lets a view connect only to the domains it declares", () => {
    const policy = viewPolicy(JSON.stringify({ connectDomains: ["https://api.example.com"] }));
    expect(policy).toContain("connect-src https://api.example.com;");
  });
});

describe("what the UI server refuses", () => {
  const secretPath = () => pageUrl.pathname;
  const refusal = (message: string) =>
    JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message } });

  it("serves the page with the secret, and nothing without it", async () => {
    expect((await get(secretPath())).status).toBe(200);
    const wrong = `Forbidden: this address needs the secret of this run; open the address mcp-dir dev printed`;
    expect(await get("/")).toEqual({ status: 403, body: refusal(wrong) });
    expect(await get("/not-the-secret/report")).toEqual({ status: 403, body: refusal(wrong) });
  });

  it("refuses a request from another origin, even with the secret", async () => {
    expect(await get(`${secretPath()}report`, { origin: "http://evil.example" })).toEqual({
      status: 403,
      body: refusal(
        'Forbidden: Origin "http://evil.example" is not allowed; add it to allowedOrigins to accept requests from that page',
      ),
    });
  });

  it("refuses an MCP request without the secret as its bearer token", async () => {
    const message = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
    };
    const refused = await get("/mcp", headers, "POST", message);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body).error.message).toBe(
      "Unauthorized: send the server's token as Authorization: Bearer <token>",
    );
  });
});
