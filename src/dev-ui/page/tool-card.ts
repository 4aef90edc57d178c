import { getToolUiResourceUri } from "@modelcontextprotocol/ext-apps/app-bridge";
import { Card, timed } from "./card.js";
import { h } from "./dom.js";
import { failure, toolResult, tree } from "./result-view.js";
import { type Field, type JsonSchema, objectForm } from "./schema-form.js";
import { type ShownView, showView } from "./view-frame.js";

/** How a call ended: with a result, or with none (the view is told it was cancelled). */
type CallEnd = { result: Record<string, unknown> } | { cancelled: string };

/** Calls may wait on the user (elicitation): give them as long as a person may take. */
const CALL_TIMEOUT_MS = 60 * 60_000;

/**
 * A tool: the form of its input schema, a Call button, its progress and log
 * lines as they come, its result, and its view when it has one.
 */
export class ToolCard extends Card {
  private form: Field | undefined;
  private schema = "";
  private tool: Record<string, unknown> = {};
  private readonly formHolder = h("form", { className: "input" });
  private readonly progress = h("div", { className: "progress" });
  private readonly logs = h("ol", { className: "logs" });
  private readonly result = h("div", { className: "outcome", "aria-live": "polite" });
  private readonly viewHolder = h("div", { className: "view-holder" });
  /** The view of the last call: its URI, the call's input and, once it ends, how. */
  private shown: { uri: string; args: Record<string, unknown>; end?: CallEnd } | undefined;
  /** The view as rendered last (or being rendered). */
  private view: Promise<ShownView | undefined> = Promise.resolve(undefined);
  private stopWatching: (() => void) | undefined;
  private readonly ended = new WeakSet<ShownView>();
  /** Aborted when the tool is gone: a view on its way is given up. */
  private readonly gone = new AbortController();

  protected changed(tool: Record<string, unknown>): void {
    this.tool = tool;
    const schema = JSON.stringify(tool.inputSchema ?? {});
    if (schema === this.schema && this.form) return;
    this.schema = schema;
    // A new schema: a new form, with what was typed carried over where it still fits.
    const typed = this.form?.read();
    this.form = objectForm((tool.inputSchema ?? {}) as JsonSchema, typed);
    if (this.body.childElementCount === 0) {
      this.formHolder.addEventListener("submit", (event) => {
        event.preventDefault();
        void this.call();
      });
      this.body.append(this.formHolder, this.progress, this.logs, this.result, this.viewHolder);
    }
    this.formHolder.replaceChildren(
      this.form.element,
      h("button", { type: "submit", className: "run" }, "Call"),
    );
  }

  log(level: string, data: unknown): void {
    this.logs.append(
      h(
        "li",
        { className: `log ${level}` },
        h("span", { className: "level" }, level),
        " ",
        typeof data === "string" ? data : tree(data),
      ),
    );
  }

  private async call(): Promise<void> {
    const name = String(this.tool.name);
    const args = (this.form?.read() ?? {}) as Record<string, unknown>;
    this.logs.replaceChildren();
    this.progress.replaceChildren();
    this.result.replaceChildren(h("p", { className: "hint" }, "calling…"));
    const uri = getToolUiResourceUri(this.tool as never);
    this.context.running = this;
    const shown: ToolCard["shown"] = uri === undefined ? undefined : { uri, args };
    this.show(shown);
    const outcome = await timed(this.context, `tools/call ${name}`, () =>
      this.context.client.callTool(
        { name, arguments: args },
        {
          timeout: CALL_TIMEOUT_MS,
          resetTimeoutOnProgress: true,
          onprogress: (progress) => this.showProgress(progress),
        },
      ),
    );
    if (this.context.running === this) this.context.running = undefined;
    let end: CallEnd;
    if (outcome.ok) {
      const result = outcome.value as Record<string, unknown>;
      this.result.replaceChildren(toolResult(result));
      end = { result };
    } else {
      this.result.replaceChildren(failure(outcome.error));
      end = { cancelled: (outcome.error as Error)?.message ?? String(outcome.error) };
    }
    if (!shown || this.shown !== shown) return;
    // A view rendered again from here on is told itself.
    shown.end = end;
    await this.sendEnd(await this.view, end);
  }

  /** Tells a view how its call ended (its result, or that it was cancelled), once. */
  private async sendEnd(view: ShownView | undefined, end: CallEnd) {
    if (!view || this.ended.has(view)) return;
    this.ended.add(view);
    const told = "result" in end ? view.sendResult(end.result) : view.sendCancelled(end.cancelled);
    await told.catch(() => {});
  }

  private showProgress(progress: { progress: number; total?: number; message?: string }): void {
    const bar = h("progress", { value: progress.progress, max: progress.total });
    const said = [
      progress.total === undefined
        ? `${progress.progress}`
        : `${progress.progress} / ${progress.total}`,
      progress.message,
    ].filter(Boolean);
    this.progress.replaceChildren(bar, h("span", {}, ` ${said.join(" — ")}`));
  }

  /**
   * Shows the view of a call (none: no view), and follows its URI: a saved
   * view, or a file it imports, is rendered again with the call's input and
   * result, as a host that listens renders it afresh.
   */
  private show(shown: ToolCard["shown"]): void {
    if (this.shown?.uri !== shown?.uri) {
      this.stopWatching?.();
      this.stopWatching =
        shown === undefined ? undefined : this.context.views.watch(shown.uri, () => this.render());
    }
    this.shown = shown;
    if (shown) this.render();
    else {
      void this.closeView();
      this.viewHolder.replaceChildren();
    }
  }

  /** Renders the view shown afresh (read again from the server), in place of the last. */
  private render(): void {
    const { shown } = this;
    if (shown === undefined) return;
    this.view = this.closeView().then(async () => {
      try {
        const view = await showView(
          this.context.client,
          this.context.secret,
          shown.uri,
          shown.args,
          this.context.tools,
          this.viewHolder,
          this.gone.signal,
        );
        if (shown.end) await this.sendEnd(view, shown.end);
        return view;
      } catch (error) {
        if (!this.gone.signal.aborted) this.viewHolder.replaceChildren(failure(error));
        return undefined;
      }
    });
  }

  private async closeView(): Promise<void> {
    await (await this.view)?.close();
  }

  /** The tool is gone: its view stops being followed, and is closed, frame and all. */
  override dispose(): void {
    this.gone.abort(new Error("the tool is gone"));
    this.show(undefined);
  }
}
