/**
 * example-server's poll view in a real browser: Debian's chromium, driven by
 * playwright-core, opens a host page built on the official host-side bridge
 * of @modelcontextprotocol/ext-apps. The host connects to `mcp-dir dev` over
 * HTTP, calls the tool poll, and renders its view in a sandboxed frame; the
 * view shows the tool's input, then its result; a button in the view calls
 * poll_vote back through the host; and a save of the view shows at once.
 *
 * MCP_DIR_VIEW_SCREENSHOT=docs/poll-view.png writes the README's picture.
 */
import { cp, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { BrowserContext, FrameLocator, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliServer, EXAMPLE_SERVER, startCli, stopAll } from "../http-cli/helpers.js";
import {
  createEmptyDir,
  linkPackages,
  linkRepoPackages,
  REPO_ROOT,
  removeServerDirs,
} from "../loader/helpers/server-dir.js";
import { WAIT_TIMEOUT_MS } from "../server/helpers/inbox.js";
import { closeBrowsers, launchChromium } from "./helpers/chromium.js";
import { routeHostPages } from "./helpers/host-pages.js";

type HostState = { events: string[]; renders: number; error: string };

let dir: string;
let server: CliServer;
let browser: BrowserContext;
let page: Page;
const requests: string[] = [];

beforeAll(async () => {
  // A copy of example-server, so that the test can save its view.
  dir = await createEmptyDir();
  await cp(EXAMPLE_SERVER, dir, { recursive: true });
  await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  await linkPackages(dir);
  await linkRepoPackages(dir, [
    "valibot",
    "@valibot/to-json-schema",
    "@modelcontextprotocol/ext-apps",
  ]);
  server = await startCli(["dev", dir, "--http", "--port", "0"]);
  browser = await launchChromium();
  browser.on("request", (request) => requests.push(request.url()));
  const { port } = new URL(server.url);
  await routeHostPages(browser, port);
  page = await browser.newPage();
  const query = new URLSearchParams({
    tool: "poll",
    arguments: JSON.stringify({ question: "Lunch?", options: ["pizza", "sushi", "salad"] }),
  });
  await page.goto(`http://127.0.0.1:${port}/host.html?${query}`);
});

afterAll(async () => {
  await closeBrowsers();
  await stopAll();
  await removeServerDirs();
});

/** The view: the inner frame of the sandbox proxy's frame. */
const view = (): FrameLocator => page.frameLocator("#view").frameLocator("iframe");
const host = () => page.evaluate(() => (globalThis as unknown as { host: HostState }).host);
/** The row of `label`, saying `votes`. */
const row = (label: string, votes: string) =>
  view()
    .locator("li")
    .filter({ has: view().getByRole("button", { name: label, exact: true }) })
    .locator(".votes", { hasText: votes });

/**
 * Waits until `locator` is shown; if it is not within the inbox's failure
 * guard, says what the host did and what the server printed.
 */
async function until(locator: Locator): Promise<void> {
  try {
    await locator.waitFor({ timeout: WAIT_TIMEOUT_MS });
  } catch (error) {
    const state = await host().catch(() => undefined);
    throw new Error(
      `${(error as Error).message}\nthe host: ${JSON.stringify(state, null, 2)}\nthe server's stderr:\n${server.stderr()}`,
    );
  }
}

describe("a view in chromium, through the official host-side bridge", () => {
  it("shows the tool's input at once, then its result", async () => {
    await until(view().locator("h1", { hasText: "Lunch?" }));
    // Only the input has come: the answers, nothing to vote in yet.
    await until(row("salad", "…"));
    expect(await view().getByRole("button").allTextContents()).toEqual(["pizza", "sushi", "salad"]);
    expect(await view().getByRole("button", { name: "pizza" }).isDisabled()).toBe(true);

    await page.evaluate(() =>
      (globalThis as unknown as { host: { releaseResult(): void } }).host.releaseResult(),
    );
    await until(row("pizza", "0 votes"));
    expect(await view().getByRole("button", { name: "pizza" }).isDisabled()).toBe(false);
    expect((await host()).events).toEqual([
      "the tool poll is shown by ui://poll",
      "sent input (render 1)",
      "sent result (render 1)",
    ]);
  });

  it("calls a tool back through the host when a button is pressed", async () => {
    await view().getByRole("button", { name: "sushi" }).click();
    await until(row("sushi", "1 vote"));
    expect((await host()).events).toContain(
      'view called poll_vote {"id":"poll-1","option":"sushi"}',
    );
    const screenshot = process.env.MCP_DIR_VIEW_SCREENSHOT;
    if (screenshot) {
      await page.locator("#view").screenshot({ path: resolve(REPO_ROOT, screenshot) });
    }
  });

  it("shows a saved change of the view at once", async () => {
    const file = join(dir, "views", "poll.ts");
    const source = await readFile(file, "utf8");
    await writeFile(
      file,
      `${source}\ndocument.body.append(Object.assign(document.createElement("footer"), { textContent: "Saved while shown" }));\n`,
    );
    await until(view().locator("footer", { hasText: "Saved while shown" }));
    // The host rendered it afresh and sent it the input and the result again.
    await until(row("salad", "0 votes"));
    const { events, renders, error } = await host();
    expect({ renders, error }).toEqual({ renders: 2, error: "" });
    expect(events.slice(-3)).toEqual([
      "ui://poll was updated",
      "sent input (render 2)",
      "sent result (render 2)",
    ]);
  });

  it("needed nothing but the host's pages and the server: the view is one self-contained page", () => {
    const { port } = new URL(server.url);
    const other = requests.filter(
      (url) =>
        !url.startsWith(`http://127.0.0.1:${port}/host.html?`) &&
        !url.startsWith(`http://localhost:${port}/sandbox.html?`) &&
        url !== `http://127.0.0.1:${port}/mcp`,
    );
    expect(other).toEqual([]);
    expect(requests).toContain(`http://127.0.0.1:${port}/mcp`);
  });
});
