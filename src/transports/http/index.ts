export type { HttpHandlerOptions } from "../../settings/http-options.js";
export { createHttpHandler, type HttpHandler, type HttpStats } from "./handler.js";
export { type HttpServeOptions, type HttpServing, serveHttp } from "./serve.js";
