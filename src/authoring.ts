/**
 * The authoring API: what definition files use, and nothing that needs a file
 * system, a process or node:http. The package's main entry re-exports it with
 * the rest; a built bundle gives it alone to files that import "mcp-dir", so
 * the same bundle also runs on Cloudflare Workers (a file that imports
 * anything else from "mcp-dir" fails the build, by name).
 */
export {
  DefinitionError,
  defineMiddleware,
  definePrompt,
  defineResource,
  defineTool,
  isDefinitionError,
} from "./define/index.js";
export { ErrorCode, JsonRpcError } from "./jsonrpc/index.js";
export { defineConfig } from "./loader/define-config.js";
export {
  audio,
  embeddedResource,
  image,
  isContentBlock,
  resourceLink,
  text,
  toBase64,
} from "./protocol/content.js";
export { McpErrorCode } from "./protocol/errors.js";
export { LOGGING_LEVELS } from "./protocol/types.js";
export { STATEFUL_VERSIONS, STATELESS_VERSION } from "./protocol/versions.js";
export { RESOURCE_NOT_FOUND } from "./server/index.js";
