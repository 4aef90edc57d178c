// Reads Server-Sent Events from a fetch response, for the HTTP tests.

export interface SseEvent {
  id?: string;
  retry?: number;
  data: string;
}

/** Reads SSE events one at a time from a fetch response body. */
export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<string>;
  private buffer = "";

  constructor(response: Response) {
    if (!response.body) throw new Error("the response has no body");
    this.reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next event, or undefined when the stream ended. Comments are skipped. */
  async next(): Promise<SseEvent | undefined> {
    for (;;) {
      const end = this.buffer.indexOf("\n\n");
      if (end !== -1) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const event = parseEvent(block);
        if (event) return event;
        continue;
      }
      const { done, value } = await this.reader.read();
      if (done) return undefined;
      this.buffer += value;
    }
  }

  /** The next event that carries a message, parsed. */
  async nextMessage(): Promise<{ id?: string; message: Record<string, unknown> } | undefined> {
    for (;;) {
      const event = await this.next();
      if (!event) return undefined;
      if (event.data !== "") return { id: event.id, message: JSON.parse(event.data) };
    }
  }

  async rest(): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (let event = await this.next(); event; event = await this.next()) events.push(event);
    return events;
  }

  cancel(): Promise<void> {
    return this.reader.cancel();
  }
}

function parseEvent(block: string): SseEvent | undefined {
  const event: SseEvent = { data: "" };
  let fields = 0;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    fields++;
    if (field === "id") event.id = value;
    else if (field === "retry") event.retry = Number(value);
    else if (field === "data") data.push(value);
  }
  if (fields === 0) return undefined;
  event.data = data.join("\n");
  return event;
}
