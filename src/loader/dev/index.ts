export type { ConfigCheck } from "./config-check.js";
export { HotReloader, type ReloadOutcome } from "./hot-reload.js";
export { type DirectoryWatcher, type WatchOptions, watchDirectory } from "./watch-directory.js";
export { type ServerWatcher, type WatchServerOptions, watchServer } from "./watch-server.js";
