export * from "./encode.js";
export * from "./errors.js";
export * from "./framing.js";
export * from "./parse.js";
export * from "./types.js";
