/** A small hyperscript over the DOM: the page builds its nodes with it, never with HTML strings. */

export type Child = Node | string | number | null | undefined | false;

type Props = Record<string, unknown>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: (Child | readonly Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false || value === null) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value as EventListener);
    } else if (name === "className") {
      element.className = String(value);
    } else if (name === "value" || name === "checked") {
      (element as unknown as Record<string, unknown>)[name] = value;
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: readonly (Child | readonly Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Makes `nodes` the children of `parent`, moving only what must move: the
 * children that go are removed first, so those that stay keep their place
 * while others come and go around them. A node moved loses what it holds:
 * the focus of a field being typed in, and the document of a frame (a view
 * shown in its sandbox would go blank).
 */
export function setChildren(parent: Element, nodes: readonly Node[]): void {
  const current = parent.childNodes;
  if (current.length === nodes.length && nodes.every((node, i) => current[i] === node)) return;
  const kept = new Set(nodes);
  for (const child of [...current]) if (!kept.has(child)) child.remove();
  nodes.forEach((node, i) => {
    if (current[i] !== node) parent.insertBefore(node, current[i] ?? null);
  });
}

let ids = 0;
/** An id unique in the page, for a label's `for`. */
export function uniqueId(prefix: string): string {
  ids++;
  return `${prefix}-${ids}`;
}
