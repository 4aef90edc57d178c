import { LOGGING_LEVELS, type LoggingLevel } from "../protocol/types.js";

/** A log message for every client: `notifications/message`'s params. */
export interface LogMessage {
  readonly level: LoggingLevel;
  readonly logger?: string;
  readonly data: unknown;
}

/**
 * What stands on a server, by key, until it is withdrawn (a file that fails to
 * load in dev): each key's log messages.
 */
export class Notices {
  private readonly byKey = new Map<string, readonly LogMessage[]>();
  private standing: readonly LogMessage[] = [];

  /** Sets (or, with none, withdraws) the messages of `key`; throws on a level that is not one. */
  set(key: string, messages: readonly LogMessage[] | undefined): void {
    for (const { level } of messages ?? []) {
      if (!(LOGGING_LEVELS as readonly unknown[]).includes(level)) {
        throw new TypeError(
          `setNotice: ${JSON.stringify(level)} is not a log level; use one of ${LOGGING_LEVELS.join(", ")}`,
        );
      }
    }
    if (messages === undefined || messages.length === 0) this.byKey.delete(key);
    else this.byKey.set(key, [...messages]);
    this.standing = [...this.byKey.values()].flat();
  }

  /** Every message that stands now, in the order their keys were first set. */
  get all(): readonly LogMessage[] {
    return this.standing;
  }
}

/** `notifications/message` params for a message. */
export function logParams({ level, logger, data }: LogMessage): Record<string, unknown> {
  return logger === undefined ? { level, data } : { level, logger, data };
}
