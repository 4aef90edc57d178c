import type { McpServer, Registry } from "../../index.js";
import type { Command } from "../command.js";
import { countSummary, loadQuietly, reportLoad } from "../load-report.js";
import { middlewareOf } from "../middleware-report.js";
import { parseCommandArgs } from "../parse-args.js";
import { printError, printOut } from "../stdout.js";
import { formatTable, oneLine } from "../table.js";
import { toolsOfView } from "../view-report.js";

export const list: Command = {
  name: "list",
  summary: "List the tools, prompts and resources of a server directory",
  help: `Usage: mcp-dir list [dir] [--json]

Loads [dir] (default: the current directory) and prints what it serves: kind,
name, source file and description, one line each, and whether a tool runs as
a task (optional or required) when any does; a view also says which tools it
shows. Exits 1 if a file has a problem (printed on stderr).

Options:
  --json       Print JSON instead: the descriptors clients that show views see, each with its source
  -h, --help   Show this help`,

  async run(argv) {
    const { positionals, values, help } = parseCommandArgs(
      "list",
      argv,
      { json: { type: "boolean" } },
      1,
    );
    if (help) {
      await printOut(list.help);
      return 0;
    }
    const dir = positionals[0] ?? ".";
    const loaded = await loadQuietly(dir);
    if (!(await reportLoad(loaded, dir, printError))) return 1;
    const { server } = loaded;
    if (values.json === true) {
      await printOut(JSON.stringify(asJson(server, loaded.load.config), null, 2));
    } else {
      await printOut(`${asTable(server)}\n\n${countSummary(server)}`);
    }
    return 0;
  },
};

type Compiled = ReturnType<Registry["entries"]>[number]["compiled"];
type Listed = {
  source: string;
  descriptor: object;
  middleware: readonly string[];
  /** A view's: the tools it shows. */
  tools?: string[];
};

/** Everything served, as a client that shows views sees it: views apart from other resources. */
function listed(server: McpServer) {
  const { registry } = server;
  const sources = new Map<Compiled, string>(
    registry.entries().map(({ source, compiled }) => [compiled, source]),
  );
  const withSource = (items: readonly Compiled[]): Listed[] =>
    items.map((item) => ({
      source: sources.get(item) ?? "",
      descriptor: item.kind === "tool" ? registry.toolDescriptor(item) : item.descriptor,
      middleware: middlewareOf(server, item),
    }));
  const views = new Set<Compiled>(registry.views);
  return {
    tools: withSource(registry.tools),
    prompts: withSource(registry.prompts),
    resources: withSource(registry.resources.filter((resource) => !views.has(resource))),
    resourceTemplates: withSource(registry.templates),
    views: withSource(registry.views).map((view, index) => ({
      ...view,
      tools: toolsOfView(server, registry.views[index]?.uri as string),
    })),
  };
}

function asJson(server: McpServer, config: { name: string; version: string }) {
  const items = listed(server);
  const flat = (entries: Listed[]) =>
    entries.map(({ source, descriptor, middleware, tools }) => ({
      ...descriptor,
      source,
      ...(middleware.length > 0 && { middleware }),
      ...(tools && { tools }),
    }));
  return {
    name: config.name,
    version: config.version,
    tools: flat(items.tools),
    prompts: flat(items.prompts),
    resources: flat(items.resources),
    resourceTemplates: flat(items.resourceTemplates),
    ...(items.views.length > 0 && { views: flat(items.views) }),
  };
}

type Described = {
  name: string;
  description?: string;
  uri?: string;
  uriTemplate?: string;
  execution?: { taskSupport?: string };
};

function asTable(server: McpServer): string {
  const items = listed(server);
  const all = [
    ...items.tools,
    ...items.prompts,
    ...items.resources,
    ...items.resourceTemplates,
    ...items.views,
  ];
  // Which tools run as tasks, and what wraps each definition: columns only where any has one.
  const tasks = server.registry.tools.some((tool) => tool.taskSupport !== "forbidden");
  const wrapped = all.some(({ middleware }) => middleware.length > 0);
  const rows = (kind: string, entries: Listed[]) =>
    entries.map(({ source, descriptor, middleware, tools }) => {
      const { name, description, uri, uriTemplate, execution } = descriptor as Described;
      const address = uri ?? uriTemplate;
      const shows =
        tools && `(${tools.length > 0 ? `shows ${tools.join(", ")}` : "shows no tool"})`;
      const said = [oneLine(description), shows].filter(Boolean).join(" ");
      const text = address === undefined ? said : `${address}  ${said}`;
      const task = tasks ? [execution?.taskSupport ?? ""] : [];
      const wrappers = wrapped ? [middleware.join(", ") || "-"] : [];
      return [kind, name, ...task, source, ...wrappers, text.trimEnd()];
    });
  return formatTable(
    [
      "KIND",
      "NAME",
      ...(tasks ? ["TASK"] : []),
      "SOURCE",
      ...(wrapped ? ["MIDDLEWARE"] : []),
      "DESCRIPTION",
    ],
    [
      ...rows("tool", items.tools),
      ...rows("prompt", items.prompts),
      ...rows("resource", items.resources),
      ...rows("template", items.resourceTemplates),
      ...rows("view", items.views),
    ],
  );
}
