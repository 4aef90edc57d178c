import { h } from "./dom.js";
import { markdown } from "./markdown.js";

/**
 * Results as a person reads them: text as Markdown, images and audio
 * played, links to resources and embedded ones, structured content as a
 * tree, and a tool's `isError` in red.
 */

type Block = Record<string, unknown> & { type?: string };
type Contents = { uri?: string; mimeType?: string; text?: string; blob?: string };

export function toolResult(result: Record<string, unknown>): HTMLElement {
  const content = Array.isArray(result.content) ? (result.content as Block[]) : [];
  const isError = result.isError === true;
  return h(
    "div",
    { className: isError ? "result error" : "result", role: isError ? "alert" : undefined },
    isError ? h("strong", { className: "error-label" }, "isError") : null,
    content.map(block),
    result.structuredContent !== undefined
      ? h(
          "div",
          { className: "structured" },
          h("h4", {}, "structuredContent"),
          tree(result.structuredContent),
        )
      : null,
  );
}

export function block(item: Block): HTMLElement {
  switch (item.type) {
    case "text":
      return markdown(String(item.text ?? ""));
    case "image":
      return h("img", {
        className: "media",
        alt: "image content",
        src: dataUrl(item.mimeType, item.data),
      });
    case "audio":
      return h("audio", { controls: true, src: dataUrl(item.mimeType, item.data) });
    case "resource_link":
      return h(
        "div",
        { className: "link" },
        "→ ",
        h("code", {}, String(item.uri)),
        item.title || item.name ? ` ${String(item.title ?? item.name)}` : "",
        item.description ? h("small", { className: "hint" }, ` ${String(item.description)}`) : null,
      );
    case "resource":
      return resourceContents(item.resource as Contents);
    default:
      return tree(item);
  }
}

/** One item of `resources/read` (or an embedded resource): shown by its MIME type. */
export function resourceContents(contents: Contents): HTMLElement {
  const mime = contents.mimeType ?? "";
  const head = h(
    "div",
    { className: "uri" },
    h("code", {}, contents.uri ?? ""),
    mime ? ` ${mime}` : "",
  );
  let body: HTMLElement;
  if (contents.text !== undefined) {
    body = mime.startsWith("text/markdown")
      ? markdown(contents.text)
      : h("pre", { className: "text" }, contents.text);
  } else if (mime.startsWith("image/")) {
    body = h("img", { className: "media", alt: contents.uri, src: dataUrl(mime, contents.blob) });
  } else if (mime.startsWith("audio/")) {
    body = h("audio", { controls: true, src: dataUrl(mime, contents.blob) });
  } else {
    body = h("small", { className: "hint" }, `${(contents.blob ?? "").length} base64 characters`);
  }
  return h("div", { className: "contents" }, head, body);
}

function dataUrl(mime: unknown, data: unknown): string {
  return `data:${String(mime ?? "application/octet-stream")};base64,${String(data ?? "")}`;
}

/** Any JSON value as a tree whose objects and arrays fold. */
export function tree(value: unknown): HTMLElement {
  if (value === null || typeof value !== "object") {
    return h(
      "span",
      { className: `leaf ${value === null ? "null" : typeof value}` },
      JSON.stringify(value),
    );
  }
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  const label = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return h(
    "details",
    { className: "tree", open: true },
    h("summary", {}, label),
    h(
      "ul",
      {},
      entries.map(([key, item]) =>
        h("li", {}, h("span", { className: "key" }, key), ": ", tree(item)),
      ),
    ),
  );
}

/** The messages of `prompts/get`. */
export function promptMessages(result: Record<string, unknown>): HTMLElement {
  const messages = Array.isArray(result.messages)
    ? (result.messages as { role: string; content: Block }[])
    : [];
  return h(
    "div",
    { className: "result" },
    result.description ? h("p", { className: "hint" }, String(result.description)) : null,
    messages.map((message) =>
      h(
        "div",
        { className: `message ${message.role}` },
        h("strong", {}, message.role),
        block(message.content),
      ),
    ),
  );
}

/** An error a request ended with (not a tool's isError result). */
export function failure(error: unknown): HTMLElement {
  const message = error instanceof Error ? error.message : String(error);
  return h(
    "div",
    { className: "result error", role: "alert" },
    h("strong", { className: "error-label" }, "error"),
    h("pre", {}, message),
  );
}
