/**
 * The sandbox proxy of the page's views (SEP-1865): served on another
 * origin than the page, it loads the view's HTML into an inner frame when
 * the page sends it and relays every other message both ways. The view's
 * CSP comes with this document as a header, and the inner frame inherits it;
 * the browser features the view asks for are allowed on the inner frame.
 */
import { allowAttribute } from "./permissions-policy.js";

const READY = "ui/notifications/sandbox-proxy-ready";
const RESOURCE_READY = "ui/notifications/sandbox-resource-ready";
const hostOrigin = new URLSearchParams(location.search).get("host") ?? "";

const inner = document.createElement("iframe");
inner.setAttribute("sandbox", "allow-scripts allow-same-origin");
document.body.append(inner);

window.addEventListener("message", (event) => {
  if (event.source === window.parent && event.origin === hostOrigin) {
    if (event.data?.method === RESOURCE_READY) {
      // What the view may use is set before it loads: a frame's allow applies at navigation.
      const allow = allowAttribute(event.data.params.permissions);
      if (allow === "") inner.removeAttribute("allow");
      else inner.setAttribute("allow", allow);
      inner.srcdoc = String(event.data.params.html);
    } else inner.contentWindow?.postMessage(event.data, "*");
  } else if (event.source === inner.contentWindow) {
    window.parent.postMessage(event.data, hostOrigin);
  }
});

window.parent.postMessage({ jsonrpc: "2.0", method: READY, params: {} }, hostOrigin);
