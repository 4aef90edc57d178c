/**
 * The page of `mcp-dir dev --ui`. It is an MCP client of the server dev
 * runs (2026-07-28 over Streamable HTTP, a listen stream for list changes),
 * so it shows what any client sees; the report stream beside it adds what
 * MCP does not say: each definition's file, export and middleware, and the
 * files that fail to load. Both update the page in place.
 */
import { ask } from "./ask.js";
import type { PageContext, Reported } from "./card.js";
import { Catalog, type Problem } from "./catalog.js";
import { connect, createClient, type Lists, listAll } from "./connection.js";
import { h } from "./dom.js";
import { Timeline } from "./timeline.js";
import { ViewUpdates } from "./view-updates.js";

interface Report {
  server: { name: string; version: string; dir: string };
  definitions: Reported[];
  problems: Problem[];
  reload?: { applied: string[]; removed: string[]; problems: number; ms: number };
}

const secret = location.pathname.split("/")[1] ?? "";
const timeline = new Timeline();
const client = createClient();
let lists: Lists = { tools: [], prompts: [], resources: [], templates: [] };
const context: PageContext = {
  client,
  secret,
  timeline,
  tools: () => lists.tools,
  completes: () => client.getServerCapabilities()?.completions !== undefined,
  views: new ViewUpdates(client, timeline),
  running: undefined,
};
const catalog = new Catalog(context);
const title = h("h1", {}, "mcp-dir dev");
const status = h("span", { className: "status", role: "status" }, "connecting…");
const asks = h("div", { className: "asks" });
document.body.append(
  h("header", {}, title, status),
  asks,
  h("main", {}, catalog.element, h("aside", {}, h("h2", {}, "Timeline"), timeline.element)),
);

client.setRequestHandler("elicitation/create", async (request) => {
  timeline.add("call", `elicitation/create: ${String(request.params.message ?? "")}`);
  return (await ask(asks, request.params as Record<string, unknown>)) as never;
});
client.setNotificationHandler("notifications/message", (notification) => {
  const { level, data, logger } = notification.params;
  context.running?.log(level, data);
  const text = typeof data === "string" ? data : JSON.stringify(data);
  timeline.add("log", `${level}${logger ? ` ${logger}` : ""}: ${text}`);
});

/** One refresh at a time; changes during one make one more. */
let refreshing: Promise<void> | undefined;
let again = false;
function refresh(reason: string): void {
  if (refreshing) {
    again = true;
    return;
  }
  const started = performance.now();
  refreshing = listAll(client)
    .then((fresh) => {
      lists = fresh;
      catalog.showLists(lists);
      timeline.add("list", reason, performance.now() - started);
    })
    .catch((error: unknown) => timeline.add("error", `listing failed: ${(error as Error).message}`))
    .finally(() => {
      refreshing = undefined;
      if (again) {
        again = false;
        refresh("listed again");
      }
    });
}

for (const kind of ["tools", "prompts", "resources"] as const) {
  client.setNotificationHandler(`notifications/${kind}/list_changed`, () =>
    refresh(`${kind}/list_changed`),
  );
}
client.setNotificationHandler("notifications/resources/updated", (notification) => {
  timeline.add("update", `resources/updated ${notification.params.uri}`);
  context.views.updated(notification.params.uri);
});

function followReports(): void {
  const events = new EventSource("report");
  events.onmessage = (event) => {
    const report = JSON.parse(event.data) as Report;
    const { name, version, dir } = report.server;
    title.textContent = `${name} ${version}`;
    title.title = dir;
    catalog.showReport(report.definitions, report.problems);
    const { reload } = report;
    if (reload) {
      const files = [...reload.applied, ...reload.removed.map((file) => `${file} (removed)`)];
      timeline.add("reload", files.join(", ") || "nothing to apply", reload.ms);
      if (reload.problems > 0)
        timeline.add("problem", `${reload.problems} problem(s): see the files in red`);
    }
  };
  events.onerror = () => {
    status.textContent = "the report stream is interrupted (is mcp-dir dev still running?)";
  };
}

async function start(): Promise<void> {
  followReports();
  const started = performance.now();
  await connect(client, secret);
  timeline.add("call", "connected", performance.now() - started);
  // 2026-07-28 sends a request's log lines when the request asks for them.
  await client.setLoggingLevel("debug").catch(() => {});
  refresh("listed");
  const subscription = await client.listen({
    toolsListChanged: true,
    promptsListChanged: true,
    resourcesListChanged: true,
  });
  status.textContent = "connected over 2026-07-28, listening for changes";
  void subscription.closed.then(() => {
    status.textContent = "the listen stream closed (is mcp-dir dev still running?)";
  });
}

start().catch((error: unknown) => {
  status.textContent = `cannot reach the server: ${(error as Error).message}`;
  status.classList.add("error");
});
