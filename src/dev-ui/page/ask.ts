import { h } from "./dom.js";
import { type JsonSchema, objectForm } from "./schema-form.js";

/**
 * Elicitation asked as a form: the server's message and its requested
 * schema, answered with accept (the form's values), decline or cancel. URL
 * mode shows the link and waits for the user to say they are done.
 */

type Answer = { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> };

export function ask(host: HTMLElement, params: Record<string, unknown>): Promise<Answer> {
  return new Promise((resolve) => {
    const url = params.mode === "url" ? String(params.url ?? "") : undefined;
    const form =
      url === undefined
        ? objectForm((params.requestedSchema ?? {}) as JsonSchema, undefined)
        : undefined;
    const done = (answer: Answer) => {
      dialog.remove();
      resolve(answer);
    };
    const dialog = h(
      "form",
      {
        className: "ask",
        role: "dialog",
        "aria-label": "The server asks",
        onsubmit: (event: Event) => {
          event.preventDefault();
          done(
            form
              ? { action: "accept", content: form.read() as Record<string, unknown> }
              : { action: "accept" },
          );
        },
      },
      h("h3", {}, "The server asks"),
      h("p", {}, String(params.message ?? "")),
      url === undefined
        ? form?.element
        : h("p", {}, h("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, url)),
      h(
        "div",
        { className: "buttons" },
        h("button", { type: "submit" }, url === undefined ? "Accept" : "Done"),
        h("button", { type: "button", onclick: () => done({ action: "decline" }) }, "Decline"),
        h("button", { type: "button", onclick: () => done({ action: "cancel" }) }, "Cancel"),
      ),
    );
    host.append(dialog);
  });
}
