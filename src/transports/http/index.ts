export { createHttpHandler, type HttpHandler, type HttpStats } from "./handler.js";
export type { HttpHandlerOptions } from "./options.js";
export { type HttpServeOptions, type HttpServing, serveHttp } from "./serve.js";
