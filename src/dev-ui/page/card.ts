import type { Client } from "@modelcontextprotocol/client";
import { h, setChildren } from "./dom.js";
import type { Timeline } from "./timeline.js";
import type { ViewUpdates } from "./view-updates.js";

/** What every card shares: the client, the run's secret, the timeline, the tools as last listed, the shown views. */
export interface PageContext {
  readonly client: Client;
  readonly secret: string;
  readonly timeline: Timeline;
  tools(): readonly Record<string, unknown>[];
  /** Whether the server answers completion/complete. */
  completes(): boolean;
  /** The views shown, rendered again when the server says one changed. */
  readonly views: ViewUpdates;
  /** The card whose call runs now: log lines go to it. */
  running: { log(level: string, data: unknown): void } | undefined;
}

/** Where a definition came from, as the report says. */
export interface Reported {
  readonly key: string;
  readonly file: string;
  readonly export?: string;
  readonly middleware: readonly string[];
}

/** One definition: a `<details>` kept across updates, so what is typed in it stays. */
export abstract class Card {
  readonly element: HTMLDetailsElement;
  private readonly heading = h("span", { className: "heading" });
  private readonly origin = h("span", { className: "origin" });
  protected readonly body = h("div", { className: "body" });

  constructor(
    readonly key: string,
    protected readonly context: PageContext,
  ) {
    const kind = key.slice(0, key.indexOf(":"));
    this.element = h(
      "details",
      { className: `definition ${kind}`, "data-key": key },
      h("summary", {}, h("span", { className: "kind" }, kind), this.heading, this.origin),
      this.body,
    );
  }

  /** Shows the definition as the server now lists it, and where it came from. */
  update(item: Record<string, unknown>, reported: Reported | undefined): void {
    const name = String(item.name ?? "");
    const address = item.uri ?? item.uriTemplate;
    setChildren(this.heading, [
      h("strong", { className: "name" }, name),
      ...(address !== undefined && address !== name
        ? [h("code", { className: "address" }, String(address))]
        : []),
      ...(item.title ? [h("span", { className: "title" }, String(item.title))] : []),
      ...(item.description
        ? [h("span", { className: "description" }, String(item.description))]
        : []),
    ]);
    const from = [
      reported?.export !== undefined ? `export ${reported.export}` : undefined,
      reported && reported.middleware.length > 0
        ? `middleware ${reported.middleware.join(" → ")}`
        : undefined,
    ].filter((part): part is string => part !== undefined);
    this.origin.textContent = from.join(" · ");
    this.changed(item);
  }

  /** The definition changed (or is shown for the first time). */
  protected abstract changed(item: Record<string, unknown>): void;

  /** The definition is gone: the card leaves the page, and lets go of what it holds. */
  dispose(): void {}
}

/** Runs `work`, recording it on the timeline with its duration; shows its outcome in `into`. */
export async function timed<T>(
  context: PageContext,
  what: string,
  work: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  const started = performance.now();
  try {
    const value = await work();
    context.timeline.add("call", what, performance.now() - started);
    return { ok: true, value };
  } catch (error) {
    context.timeline.add(
      "error",
      `${what}: ${(error as Error).message}`,
      performance.now() - started,
    );
    return { ok: false, error };
  }
}
