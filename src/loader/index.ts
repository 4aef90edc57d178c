export { applyToRegistry } from "./apply.js";
export {
  CONFIG_FILES,
  type ConfigLoad,
  defineConfig,
  type HttpConfig,
  loadConfig,
  type ResolvedConfig,
  type ServerConfig,
} from "./config.js";
export { deriveName } from "./derive-name.js";
export { CODE_EXTENSIONS, DEFINITION_FOLDERS, type DefinitionFolder } from "./folders.js";
export { createImporter, type ModuleImporter, type ModuleNamespace } from "./importer.js";
export { type DirectoryLoad, type LoadDirectoryOptions, loadDirectory } from "./load-directory.js";
export { type FileLoad, type LoadFileOptions, loadFile } from "./load-file.js";
export { type LoadedServer, loadServer } from "./load-server.js";
export {
  formatProblem,
  formatWarning,
  type LoadProblem,
  type LoadWarning,
  problemsByFile,
} from "./problems.js";
export { ReloadableModules } from "./reloadable-modules.js";
export { staticResourceUri } from "./resource-naming.js";
export { type ScanPatterns, type ScanResult, scanDirectory } from "./scan.js";
