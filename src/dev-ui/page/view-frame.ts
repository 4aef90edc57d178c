import type { Client } from "@modelcontextprotocol/client";
import {
  AppBridge,
  isToolVisibilityModelOnly,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import { h } from "./dom.js";
import { allowAttribute, grantedPermissions } from "./permissions-policy.js";

/**
 * An MCP Apps view rendered as a web host renders it (SEP-1865): a sandbox
 * proxy on another origin (the other loopback name, the same port) with the
 * CSP the view declared, the view in its inner frame, and the official
 * host-side bridge speaking to it: the tool's input, then its result; the
 * view's own tool calls go to the server when their visibility allows it.
 */

type ViewMeta = {
  csp?: Record<string, string[]>;
  permissions?: Record<string, object>;
  prefersBorder?: boolean;
};

const HOST_INFO = { name: "mcp-dir dev UI", version: "1.0.0" };

export interface ShownView {
  readonly element: HTMLElement;
  sendResult(result: Record<string, unknown>): Promise<void>;
  /** The call ended with no result (refused, failed, timed out): the view stops waiting. */
  sendCancelled(reason: string): Promise<void>;
  /** Stops speaking to the view: it is told first while its frame is in the page. */
  close(): Promise<void>;
}

function sandboxUrl(secret: string, ui: ViewMeta): URL {
  const other = location.hostname === "localhost" ? "127.0.0.1" : "localhost";
  const url = new URL(`/${secret}/sandbox.html`, `http://${other}:${location.port}`);
  url.searchParams.set("csp", JSON.stringify(ui.csp ?? {}));
  url.searchParams.set("host", location.origin);
  return url;
}

/** `work`, or the reason `signal` is aborted for, whichever comes first. */
function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/**
 * Shows the view `uri` in `into`. Aborting `signal` gives up on a view still
 * on its way (a frame out of the page never says it is ready): what it
 * listens with is let go, and the promise is rejected.
 */
export async function showView(
  client: Client,
  secret: string,
  uri: string,
  args: Record<string, unknown>,
  tools: () => readonly Record<string, unknown>[],
  into: HTMLElement,
  signal: AbortSignal,
): Promise<ShownView> {
  const { contents } = await client.readResource({ uri }, { cacheMode: "bypass", signal });
  signal.throwIfAborted();
  const [content] = contents as { mimeType?: string; text?: string; _meta?: { ui?: ViewMeta } }[];
  if (!content || content.mimeType !== RESOURCE_MIME_TYPE || content.text === undefined) {
    throw new Error(`${uri} is not a view (${content?.mimeType ?? "no contents"})`);
  }
  const ui = content._meta?.ui ?? {};
  const permissions = grantedPermissions(ui.permissions);
  const frame = h("iframe", {
    className: ui.prefersBorder ? "view bordered" : "view",
    title: `view ${uri}`,
    sandbox: "allow-scripts allow-same-origin",
    allow: allowAttribute(permissions) || undefined,
    src: sandboxUrl(secret, ui).href,
  });
  let listener: ((event: MessageEvent) => void) | undefined;
  const ready = new Promise<void>((resolve) => {
    listener = (event: MessageEvent) => {
      if (
        event.source === frame.contentWindow &&
        event.data?.method === "ui/notifications/sandbox-proxy-ready"
      )
        resolve();
    };
    window.addEventListener("message", listener);
  });
  into.replaceChildren(frame);
  try {
    await unlessAborted(ready, signal);
  } finally {
    if (listener) window.removeEventListener("message", listener);
  }
  const bridge = new AppBridge(null, HOST_INFO, {
    serverTools: {},
    logging: {},
    sandbox: { csp: ui.csp ?? {}, permissions },
  });
  bridge.oncalltool = async (call) => {
    const called = tools().find((tool) => tool.name === call.name);
    if (!called || isToolVisibilityModelOnly(called as never))
      throw new Error(`${call.name}: not for views`);
    return (await client.callTool(call)) as never;
  };
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${height + (ui.prefersBorder ? 2 : 0)}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  const window_ = frame.contentWindow;
  if (!window_) throw new Error("the sandbox frame has no window");
  await bridge.connect(new PostMessageTransport(window_, window_));
  try {
    await bridge.sendSandboxResourceReady({
      html: content.text,
      csp: ui.csp,
      permissions,
    } as never);
    await unlessAborted(initialized, signal);
    await bridge.sendToolInput({ arguments: args });
  } catch (error) {
    await bridge.close();
    throw error;
  }
  return {
    element: frame,
    sendResult: (result) => bridge.sendToolResult(result as never),
    sendCancelled: (reason) => bridge.sendToolCancelled({ reason }),
    async close() {
      // A frame out of the page has no window left to answer: the teardown would wait in vain.
      if (frame.isConnected)
        await bridge.teardownResource({ reason: "shown again" }).catch(() => {});
      await bridge.close();
    },
  };
}
