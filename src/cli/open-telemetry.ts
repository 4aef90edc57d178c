import { thrownMessage } from "../define/thrown.js";
import { printError } from "./stdout.js";

/**
 * Where OpenTelemetry's JS API (1.x) keeps what is registered globally, for
 * every copy of it in the process to share: `trace` once a tracer provider is.
 */
const OPEN_TELEMETRY_API = Symbol.for("opentelemetry.js.api.1");

/**
 * `serve` and `dev` trace their requests of their own accord when the process
 * has a tracer provider registered (an SDK set up by a file given to
 * `node --import`); otherwise nothing of OpenTelemetry, nor of mcp-dir/otel,
 * is loaded.
 */
export async function traceIfOpenTelemetryIsSetUp(): Promise<void> {
  const registered = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[
    OPEN_TELEMETRY_API
  ];
  if (registered?.trace === undefined) return;
  try {
    (await import("../otel/index.js")).instrument();
  } catch (error) {
    await printError(
      `mcp-dir: OpenTelemetry is set up in this process, but requests are not traced: mcp-dir/otel could not load (${thrownMessage(error)}); install @opentelemetry/api where mcp-dir can import it`,
    );
  }
}
