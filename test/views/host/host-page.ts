/**
 * A web host of MCP Apps views, built on the official host-side bridge
 * (AppBridge of @modelcontextprotocol/ext-apps): it connects to the server
 * it is served beside (`/mcp`) with the official client, declaring the
 * extension; calls a tool; renders the tool's view in a sandbox proxy on
 * another origin, which loads it into an inner frame; sends it the tool's
 * input and, once the test releases it, the result; forwards the view's
 * tool calls to the server; and renders the view afresh when the server
 * says it changed. What happens is recorded in `window.host` for the test.
 */

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  AppBridge,
  getToolUiResourceUri,
  isToolVisibilityModelOnly,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
} from "@modelcontextprotocol/ext-apps/app-bridge";

type CallResult = Awaited<ReturnType<Client["callTool"]>>;
type ViewMeta = {
  csp?: Record<string, string[]>;
  permissions?: Record<string, object>;
  prefersBorder?: boolean;
};

const HOST = { name: "mcp-dir test host", version: "1.0.0" };
const EXTENSION = "io.modelcontextprotocol/ui";

const params = new URLSearchParams(location.search);
const toolName = params.get("tool") ?? "";
const toolArguments = JSON.parse(params.get("arguments") ?? "{}") as Record<string, unknown>;
/** The sandbox proxy: the same port under another host name, so another origin. */
const sandboxUrl = new URL("/sandbox.html", `http://localhost:${location.port}`);

const events: string[] = [];
let releaseResult: () => void = () => {};
const resultReleased = new Promise<void>((resolve) => {
  releaseResult = resolve;
});
const host = { events, releaseResult: () => releaseResult(), renders: 0, error: "" };
Object.assign(window, { host });
const record = (event: string) => events.push(event);

const client = new Client(HOST, {
  versionNegotiation: { mode: "auto" },
  capabilities: { extensions: { [EXTENSION]: { mimeTypes: [RESOURCE_MIME_TYPE] } } },
} as ConstructorParameters<typeof Client>[1]);

let shown: { bridge: AppBridge; frame: HTMLIFrameElement } | undefined;
let result: CallResult | undefined;
let tools: Awaited<ReturnType<Client["listTools"]>>["tools"] = [];

/** The view's page and its `_meta.ui`, read from the server. */
async function readView(uri: string): Promise<{ html: string; ui: ViewMeta }> {
  const { contents } = await client.readResource({ uri });
  const [content] = contents;
  if (!content || content.mimeType !== RESOURCE_MIME_TYPE || !("text" in content)) {
    throw new Error(`${uri} is not a view: ${JSON.stringify(content)}`);
  }
  return { html: content.text, ui: (content._meta?.ui ?? {}) as ViewMeta };
}

/** A sandbox proxy frame on its own origin, resolved once it says it is ready. */
function sandboxFrame(ui: ViewMeta): Promise<HTMLIFrameElement> {
  const frame = document.createElement("iframe");
  frame.id = "view";
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin");
  if (ui.prefersBorder) frame.className = "bordered";
  const url = new URL(sandboxUrl);
  url.searchParams.set("csp", JSON.stringify(ui.csp ?? {}));
  frame.src = url.href;
  return new Promise((resolve) => {
    const ready = (event: MessageEvent) => {
      if (
        event.source === frame.contentWindow &&
        event.data?.method === "ui/notifications/sandbox-proxy-ready"
      ) {
        window.removeEventListener("message", ready);
        resolve(frame);
      }
    };
    window.addEventListener("message", ready);
    document.getElementById("views")?.replaceChildren(frame);
  });
}

/** Renders the view at `uri`, replacing the one shown, and sends it the input (and the result, once there is one). */
async function render(uri: string): Promise<void> {
  const { html, ui } = await readView(uri);
  // A view that does not answer (no onteardown) is torn down all the same.
  await shown?.bridge.teardownResource({ reason: "the view changed" }).catch(() => {});
  await shown?.bridge.close();
  const frame = await sandboxFrame(ui);
  const bridge = new AppBridge(null, HOST, {
    serverTools: {},
    logging: {},
    sandbox: { csp: ui.csp ?? {}, permissions: ui.permissions ?? {} },
  });
  // A view may call the tools of its server that its app may call (SEP-1865's visibility).
  bridge.oncalltool = async (call) => {
    record(`view called ${call.name} ${JSON.stringify(call.arguments ?? {})}`);
    const called = tools.find((tool) => tool.name === call.name);
    if (!called || isToolVisibilityModelOnly(called))
      throw new Error(`${call.name}: not for views`);
    return (await client.callTool(call)) as CallResult & { content: [] };
  };
  // The view's height is its content's (and the border's): it says so whenever that changes.
  bridge.onsizechange = ({ height }) => {
    if (height === undefined) return;
    const { borderTopWidth, borderBottomWidth } = getComputedStyle(frame);
    const border = Number.parseFloat(borderTopWidth) + Number.parseFloat(borderBottomWidth);
    frame.style.height = `${height + border}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  const target = frame.contentWindow;
  if (!target) throw new Error("the sandbox proxy's frame has no window");
  await bridge.connect(new PostMessageTransport(target, target));
  await bridge.sendSandboxResourceReady({ html, csp: ui.csp, permissions: ui.permissions });
  await initialized;
  shown = { bridge, frame };
  host.renders++;
  await bridge.sendToolInput({ arguments: toolArguments });
  record(`sent input (render ${host.renders})`);
  if (result) {
    await bridge.sendToolResult(result as never);
    record(`sent result (render ${host.renders})`);
  }
}

async function main(): Promise<void> {
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href)));
  ({ tools } = await client.listTools());
  const tool = tools.find((candidate) => candidate.name === toolName);
  const uri = tool && getToolUiResourceUri(tool);
  if (!uri) throw new Error(`the tool ${toolName} has no view: ${JSON.stringify(tool)}`);
  record(`the tool ${toolName} is shown by ${uri}`);
  // A saved view is a notification on a listen stream that names it: render it afresh.
  client.setNotificationHandler("notifications/resources/updated", (notification) => {
    if (notification.params.uri !== uri) return;
    record(`${uri} was updated`);
    void render(uri).catch(fail);
  });
  await client.listen({ resourceSubscriptions: [uri] });
  // The tool runs while its view is shown; the test says when its result may arrive.
  const called = client.callTool({ name: toolName, arguments: toolArguments });
  await render(uri);
  await resultReleased;
  result = (await called) as CallResult;
  await shown?.bridge.sendToolResult(result as never);
  record(`sent result (render ${host.renders})`);
}

function fail(error: unknown): void {
  host.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  record(`failed: ${host.error}`);
}

main().catch(fail);
