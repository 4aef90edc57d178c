import { h } from "./dom.js";

/**
 * Markdown as a person reads it, built as DOM nodes (never as HTML, so a
 * result cannot inject anything): headings, paragraphs (a single line break
 * kept), lists, quotes, fenced code, and inline code, bold, italics and
 * links (http, https and mailto only).
 */
export function markdown(source: string): HTMLElement {
  const root = h("div", { className: "markdown" });
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] as string).trimStart().startsWith(fence[1] as string)) {
        body.push(lines[i] as string);
        i++;
      }
      i++;
      root.append(h("pre", {}, h("code", {}, body.join("\n"))));
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min((heading[1] as string).length + 2, 6);
      root.append(h(`h${level}` as "h3", {}, ...inline(heading[2] as string)));
      i++;
      continue;
    }
    if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const list = h(ordered ? "ol" : "ul");
      while (i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i] as string)) {
        const item = (lines[i] as string).replace(/^\s*([-*+]|\d+[.)])\s+/, "");
        list.append(h("li", {}, ...inline(item)));
        i++;
      }
      root.append(list);
      continue;
    }
    if (line.startsWith(">")) {
      const quoted: string[] = [];
      while (i < lines.length && (lines[i] as string).startsWith(">")) {
        quoted.push((lines[i] as string).replace(/^>\s?/, ""));
        i++;
      }
      root.append(h("blockquote", {}, markdown(quoted.join("\n"))));
      continue;
    }
    if (line.trim() === "") {
      i++;
      continue;
    }
    const paragraph: string[] = [];
    while (
      i < lines.length &&
      (lines[i] as string).trim() !== "" &&
      !/^(\s*(```|~~~)|#{1,6}\s|>|\s*([-*+]|\d+[.)])\s+)/.test(lines[i] as string)
    ) {
      paragraph.push(lines[i] as string);
      i++;
    }
    const p = h("p");
    paragraph.forEach((text, n) => {
      if (n > 0) p.append(h("br"));
      p.append(...inline(text));
    });
    root.append(p);
  }
  return root;
}

const INLINE =
  /(`[^`]+`)|(\*\*[^*]+\*\*|__[^_]+__)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\([^)\s]+\))/;

function inline(text: string): Node[] {
  const nodes: Node[] = [];
  let rest = text;
  while (rest.length > 0) {
    const match = INLINE.exec(rest);
    if (!match) {
      nodes.push(document.createTextNode(rest));
      break;
    }
    if (match.index > 0) nodes.push(document.createTextNode(rest.slice(0, match.index)));
    const [whole, code, strong, em, link] = match;
    if (code) nodes.push(h("code", {}, code.slice(1, -1)));
    else if (strong) nodes.push(h("strong", {}, ...inline(strong.slice(2, -2))));
    else if (em) nodes.push(h("em", {}, ...inline(em.slice(1, -1))));
    else if (link) {
      const [, label = "", href = ""] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(link) ?? [];
      nodes.push(
        /^(https?:|mailto:)/i.test(href)
          ? h("a", { href, target: "_blank", rel: "noopener noreferrer" }, label)
          : document.createTextNode(label),
      );
    }
    rest = rest.slice(match.index + whole.length);
  }
  return nodes;
}
