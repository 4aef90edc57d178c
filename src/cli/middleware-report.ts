import type { McpServer } from "../index.js";

type Compiled = ReturnType<McpServer["registry"]["entries"]>[number]["compiled"];

/** What wraps one definition, outermost first: "(server)" for the config's own, else files. */
export function middlewareOf(server: McpServer, compiled: Compiled): readonly string[] {
  return server.registry.served(compiled).middleware;
}

/**
 * One line per middleware: what it wraps, by name. Empty when there is none,
 * so a directory without middleware reads as before.
 */
export function middlewareLines(server: McpServer): string[] {
  const wraps = new Map<string, string[]>();
  for (const { compiled } of server.registry.entries()) {
    for (const source of middlewareOf(server, compiled)) {
      const names = wraps.get(source) ?? [];
      names.push(compiled.name);
      wraps.set(source, names);
    }
  }
  return [...wraps].map(([source, names]) => {
    const which = source === "(server)" ? "the config's middleware" : source;
    return `middleware: ${which} wraps ${names.length} definition${names.length === 1 ? "" : "s"}: ${names.join(", ")}`;
  });
}
