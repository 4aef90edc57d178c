/**
 * Views in a real browser: Debian's chromium, driven by playwright-core,
 * opens a host page built on the official host-side bridge of
 * @modelcontextprotocol/ext-apps. The host connects to `mcp-dir dev` over
 * HTTP, calls a tool, and renders its view in a sandboxed frame; the view
 * shows the tool's input, then its result; a button in the view calls a
 * tool back through the host; and a save of the view shows at once. Both
 * example-server's poll (TypeScript, the official view-side library) and
 * the view `init --view` writes (plain HTML) are tried.
 *
 * MCP_DIR_VIEW_SCREENSHOT=docs/poll-view.png writes the README's picture.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startCliHere, stopAll } from "../http-cli/helpers.js";
import {
  copyExampleServer,
  createEmptyDir,
  linkPackages,
  REPO_ROOT,
  removeServerDirs,
} from "../loader/helpers/server-dir.js";
import { closeBrowsers, launchChromium } from "./helpers/chromium.js";
import { openTestHost, type TestHost } from "./helpers/test-host.js";

let browser: BrowserContext;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await closeBrowsers();
  await stopAll();
  await removeServerDirs();
});

describe("example-server's poll view, in chromium through the official host-side bridge", () => {
  let dir: string;
  let host: TestHost;

  beforeAll(async () => {
    // A copy of example-server, so that the test can save its files.
    dir = await copyExampleServer();
    const server = await startCliHere(["dev", dir, "--http", "--port", "0"]);
    host = await openTestHost(browser, server, "poll", {
      question: "Lunch?",
      options: ["pizza", "sushi", "salad"],
    });
  });

  /** The row of `label`, saying `votes`. */
  const row = (label: string, votes: string) =>
    host
      .view()
      .locator("li")
      .filter({ has: host.view().getByRole("button", { name: label, exact: true }) })
      .locator(".votes", { hasText: votes });

  it("shows the tool's input at once, then its result", async () => {
    const view = host.view();
    await host.until(view.locator("h1", { hasText: "Lunch?" }));
    // Only the input has come: the answers, nothing to vote in yet.
    await host.until(row("salad", "…"));
    expect(await view.getByRole("button").allTextContents()).toEqual(["pizza", "sushi", "salad"]);
    expect(await view.getByRole("button", { name: "pizza" }).isDisabled()).toBe(true);

    await host.releaseResult();
    await host.until(row("pizza", "0 votes"));
    expect(await view.getByRole("button", { name: "pizza" }).isDisabled()).toBe(false);
    expect((await host.state()).events).toEqual([
      "the tool poll is shown by ui://poll",
      "sent input (render 1)",
      "sent result (render 1)",
    ]);
  });

  it("calls a tool back through the host when a button is pressed", async () => {
    await host.view().getByRole("button", { name: "sushi" }).click();
    await host.until(row("sushi", "1 vote"));
    expect((await host.state()).events).toContain(
      'view called poll_vote {"id":"poll-1","option":"sushi"}',
    );
    const screenshot = process.env.MCP_DIR_VIEW_SCREENSHOT;
    if (screenshot) {
      await host.page.locator("#view").screenshot({ path: resolve(REPO_ROOT, screenshot) });
    }
  });

  it("shows a saved change of the view at once", async () => {
    const file = join(dir, "views", "poll.ts");
    const source = await readFile(file, "utf8");
    await writeFile(
      file,
      `${source}\ndocument.body.append(Object.assign(document.createElement("footer"), { textContent: "Saved while shown" }));\n`,
    );
    await host.untilRendered(2);
    await host.until(host.view().locator("footer", { hasText: "Saved while shown" }));
    // The host rendered it afresh and sent it the input and the result again.
    await host.until(row("salad", "0 votes"));
    const { events, renders, error } = await host.state();
    expect({ renders, error }).toEqual({ renders: 2, error: "" });
    expect(events.slice(-3)).toEqual([
      "ui://poll was updated",
      "sent input (render 2)",
      "sent result (render 2)",
    ]);
  });

  it("needed nothing but the host's pages and the server: the view is one self-contained page", () => {
    const pages = /^http:\/\/(127\.0\.0\.1:\d+\/host|localhost:\d+\/sandbox)\.html\?|\/mcp$/;
    expect(host.requests.filter((url) => !pages.test(url))).toEqual([]);
    expect(host.requests.some((url) => url.endsWith("/mcp"))).toBe(true);
  });
});

describe("the view init --view writes, plain HTML with no library, in chromium", () => {
  let host: TestHost;

  beforeAll(async () => {
    const dir = join(await createEmptyDir(), "greeter");
    const made = await runCli(["init", dir, "--view"]);
    expect(made.code).toBe(0);
    await linkPackages(dir);
    const server = await startCliHere(["dev", dir, "--http", "--port", "0"]);
    host = await openTestHost(browser, server, "greet", { name: "Ada" });
  });

  it("shows the tool's result, and greets again through the host when its button is pressed", async () => {
    const view = host.view();
    const again = view.getByRole("button", { name: "Greet excitedly" });
    await host.until(again);
    expect(await again.isDisabled()).toBe(true);
    await host.releaseResult();
    await host.until(view.getByText("Hello, Ada."));
    await again.click();
    await host.until(view.getByText("Hello, Ada!"));
    const { events, error } = await host.state();
    expect(error).toBe("");
    expect(events).toContain('view called greet {"name":"Ada","excited":true}');
  });
});
