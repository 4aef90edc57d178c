/**
 * The sandbox proxy of a web host (SEP-1865): a page on another origin than
 * the host's, which loads the view's HTML into an inner frame when the host
 * sends it, and relays every other message between the host and the view.
 * Its CSP, which the inner frame inherits, comes with the page (an HTTP
 * header the test sets from the view's declared domains).
 */
const READY = "ui/notifications/sandbox-proxy-ready";
const RESOURCE_READY = "ui/notifications/sandbox-resource-ready";
const hostOrigin = new URL(document.referrer).origin;

const inner = document.createElement("iframe");
inner.setAttribute("sandbox", "allow-scripts allow-same-origin");
inner.style.cssText = "border: 0; width: 100%; height: 100%;";
document.body.append(inner);

window.addEventListener("message", (event) => {
  if (event.source === window.parent && event.origin === hostOrigin) {
    if (event.data?.method === RESOURCE_READY) {
      inner.srcdoc = String(event.data.params.html);
    } else {
      inner.contentWindow?.postMessage(event.data, "*");
    }
  } else if (event.source === inner.contentWindow) {
    window.parent.postMessage(event.data, hostOrigin);
  }
});

window.parent.postMessage({ jsonrpc: "2.0", method: READY, params: {} }, hostOrigin);
