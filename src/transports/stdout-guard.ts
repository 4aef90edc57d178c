type Write = (...args: never[]) => unknown;

/** What the guard needs of the two streams: process.stdout and process.stderr, or stand-ins. */
export interface GuardedStreams {
  stdout: { write: Write };
  stderr: { write: Write };
}

export interface StdoutGuard {
  /**
   * Sends what anyone writes to stdout (author code's console.log) to stderr
   * until the returned function is called. Holds nest and overlap in any order
   * (a reload still running when stdio starts serving, say): stdout is given
   * back when the last one ends, as it was before the first.
   */
  hold(): () => void;
  /**
   * Writes to stdout itself, held or not: the protocol's messages, a command's
   * result. `written` is called once the text is handed to the system.
   */
  write(text: string, written?: () => void): void;
}

/**
 * stdout is the stdio transport's protocol channel and a command's result:
 * nothing else may reach it while either is in use. One guard per pair of
 * streams; `stdoutGuard` is the process's.
 */
export function guardStdout(streams: GuardedStreams): StdoutGuard {
  let holds = 0;
  /** stdout's own write, kept while it is held. */
  let own: Write | undefined;
  return {
    hold() {
      const { stdout, stderr } = streams;
      if (holds++ === 0) {
        own = stdout.write;
        stdout.write = stderr.write.bind(stderr);
      }
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        if (--holds === 0 && own !== undefined) {
          stdout.write = own;
          own = undefined;
        }
      };
    },
    write(text, written) {
      const { stdout } = streams;
      const write = (own ?? stdout.write) as (text: string, written?: () => void) => unknown;
      write.call(stdout, text, written);
    },
  };
}

let processGuard: StdoutGuard | undefined;

/** The guard of this process's stdout. */
export function stdoutGuard(): StdoutGuard {
  processGuard ??= guardStdout(process as unknown as GuardedStreams);
  return processGuard;
}
