/**
 * The test host (test/views/host/) opened in chromium for one server: its
 * page calls `tool` with `args` and shows the tool's view; the test reads
 * the view, and what the host did, through this.
 */
import type { BrowserContext, FrameLocator, Locator, Page } from "playwright-core";
import type { ServerHere } from "../../http-cli/helpers.js";
import { WAIT_TIMEOUT_MS } from "../../server/helpers/inbox.js";
import { routeHostPages } from "./host-pages.js";

/** What the host page records in `window.host`. */
export interface HostState {
  events: string[];
  renders: number;
  error: string;
}

export interface TestHost {
  readonly page: Page;
  /** The view: the inner frame of the sandbox proxy's frame. */
  view(): FrameLocator;
  state(): Promise<HostState>;
  /** Lets the tool's result reach the view (until then it has only the input). */
  releaseResult(): Promise<void>;
  /** Waits until `locator` is shown; past the failure guard, says what the host and server did. */
  until(locator: Locator): Promise<void>;
  /**
   * Waits until the host has rendered the view `count` times in all: a new
   * render replaces the frames, and a wait inside the old ones would end
   * with them.
   */
  untilRendered(count: number): Promise<void>;
  /** Every URL the browser asked for, of this host's origins. */
  readonly requests: string[];
}

type HostWindow = { host: HostState & { releaseResult(): void } };

export async function openTestHost(
  browser: BrowserContext,
  server: Pick<ServerHere, "url" | "stderr">,
  tool: string,
  args: Record<string, unknown>,
): Promise<TestHost> {
  const { port } = new URL(server.url);
  const requests: string[] = [];
  browser.on("request", (request) => {
    if (new URL(request.url()).port === port) requests.push(request.url());
  });
  await routeHostPages(browser, port);
  const page = await browser.newPage();
  // What the page went through, for a failure to say.
  const incidents: string[] = [];
  page.on("crash", () => incidents.push("the page crashed"));
  page.on("close", () => incidents.push("the page closed"));
  page.on("pageerror", (error) => incidents.push(`uncaught: ${error.message}`));
  const query = new URLSearchParams({ tool, arguments: JSON.stringify(args) });
  await page.goto(`http://127.0.0.1:${port}/host.html?${query}`);
  /** A wait that, past the failure guard, says what the host did, what the page went through and what the server printed. */
  const explained = async (waiting: Promise<unknown>): Promise<void> => {
    try {
      await waiting;
    } catch (error) {
      const host = await state().catch(() => undefined);
      throw new Error(
        `${(error as Error).message}\nthe host: ${JSON.stringify(host, null, 2)}\nthe page: ${incidents.join("; ") || "nothing of note"}\nthe server's stderr:\n${server.stderr()}`,
      );
    }
  };
  const state = () =>
    page.evaluate(() => {
      const { events, renders, error } = (globalThis as unknown as HostWindow).host;
      return { events, renders, error };
    });
  return {
    page,
    requests,
    view: () => page.frameLocator("#view").frameLocator("iframe"),
    state,
    releaseResult: () =>
      page.evaluate(() => (globalThis as unknown as HostWindow).host.releaseResult()),
    until: (locator) => explained(locator.waitFor({ timeout: WAIT_TIMEOUT_MS })),
    async untilRendered(count) {
      await explained(
        page.waitForFunction(
          (n) => (globalThis as unknown as HostWindow).host.renders >= n,
          count,
          { timeout: WAIT_TIMEOUT_MS },
        ),
      );
    },
  };
}
