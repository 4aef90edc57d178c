/**
 * What a built bundle gives author files that import "mcp-dir": the
 * authoring API of the package's main entry, without what needs a file
 * system, a process or node:http (the loader, the stdio and Node HTTP
 * transports), so the same bundle also runs on Cloudflare Workers. A file
 * that imports anything else from "mcp-dir" fails the build, by name.
 */

export {
  DefinitionError,
  definePrompt,
  defineResource,
  defineTool,
  isDefinitionError,
} from "../define/index.js";
export type * from "../index.js";
export { ErrorCode, JsonRpcError } from "../jsonrpc/index.js";
export {
  audio,
  embeddedResource,
  image,
  isContentBlock,
  resourceLink,
  text,
  toBase64,
} from "../protocol/content.js";
export { McpErrorCode } from "../protocol/errors.js";
export { LOGGING_LEVELS } from "../protocol/types.js";
export { STATEFUL_VERSIONS, STATELESS_VERSION } from "../protocol/versions.js";
export { RESOURCE_NOT_FOUND } from "../server/index.js";
