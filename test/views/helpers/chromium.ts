/**
 * Debian's chromium, driven by playwright-core: nothing downloads a browser.
 * CI installs it (apt-get install chromium); without it the tests that need
 * it fail, saying what to install.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** Quiet, headless, and nothing of its own on the network. */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const open = new Map<BrowserContext, string>();

/** A browser with a fresh profile of its own, closed (and its profile removed) by closeBrowsers. */
export async function launchChromium(): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Debian's chromium is not installed at ${CHROMIUM}, and the views' browser tests need it: apt-get install -y chromium (CI's .ci/run installs it)`,
    );
  }
  const profile = await mkdtemp(join(tmpdir(), "mcp-dir-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 640, height: 360 },
  });
  open.set(context, profile);
  return context;
}

export async function closeBrowsers(): Promise<void> {
  const all = [...open];
  open.clear();
  await Promise.all(
    all.map(async ([context, profile]) => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }),
  );
}
