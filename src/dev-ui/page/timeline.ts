import { h } from "./dom.js";

/** What happened, newest first: reloads, list changes, calls, logs, each with its time and duration. */

export type Happening = "reload" | "problem" | "list" | "update" | "call" | "log" | "error";

const KEEP = 300;

export class Timeline {
  readonly element = h("ol", { className: "timeline", "aria-label": "timeline" });

  add(kind: Happening, text: string, ms?: number): void {
    const at = new Date();
    const time = `${at.toLocaleTimeString([], { hour12: false })}.${String(at.getMilliseconds()).padStart(3, "0")}`;
    this.element.prepend(
      h(
        "li",
        { className: `happening ${kind}`, "data-kind": kind },
        h("time", {}, time),
        h("span", { className: "kind" }, kind),
        h("span", { className: "what" }, text),
        ms === undefined ? null : h("span", { className: "ms" }, `${Math.round(ms)} ms`),
      ),
    );
    while (this.element.childElementCount > KEEP) this.element.lastElementChild?.remove();
  }
}
