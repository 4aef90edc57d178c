/**
 * Sends a notification whose params hold author data (a log message, progress
 * text): one that cannot be encoded as JSON is dropped with a line for the
 * developer, never thrown at the handler that logged it or at the transport.
 */
export function notifySafely(warn: (message: string) => void, method: string, send: () => void) {
  try {
    send();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    warn(`a ${method} could not be sent as JSON and was dropped: ${why}`);
  }
}
