export { HotReloader, type ReloadOutcome } from "./hot-reload.js";
export { type DirectoryWatcher, type WatchOptions, watchDirectory } from "./watch-directory.js";
