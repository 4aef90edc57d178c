import type { ServerConfig } from "./config.js";

/**
 * Types a configuration file: `export default defineConfig({ name: "weather" })`.
 * Apart from the loader so that a built bundle, which embeds the config's
 * middleware, can give it to the config file without the loader.
 */
export function defineConfig(config: ServerConfig): ServerConfig {
  return config;
}
