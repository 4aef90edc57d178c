export * from "./content.js";
export * from "./downgrade.js";
export * from "./errors.js";
export * from "./meta.js";
export * from "./tasks.js";
export type * from "./types.js";
export { LOGGING_LEVELS } from "./types.js";
export * from "./ui.js";
export * from "./versions.js";
