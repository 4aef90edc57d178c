import { describe, expect, it } from "vitest";
import { EventStore, eventId, parseEventId } from "../../src/transports/http/event-store.js";
import { ReplayPool } from "../../src/transports/http/replay-pool.js";

describe("EventStore", () => {
  it("hands out ids unique across streams that name their stream", () => {
    const store = new EventStore(10, 1000);
    const a = store.append(1, "a");
    const b = store.append(2, "b");
    const primed = store.nextId(1);
    expect([a, b, primed]).toEqual(["1.1", "2.2", "1.3"]);
    expect(parseEventId("2.2")).toEqual({ stream: 2, seq: 2 });
    expect(eventId(0, 7)).toBe("0.7");
  });

  it("refuses ids it could not have issued", () => {
    for (const id of ["", "1", "a.1", "1.b", "1.2.3", "-1.2", "1.2 "]) {
      expect(parseEventId(id)).toBeUndefined();
    }
  });

  it("replays only the stream asked for, after the given event", () => {
    const store = new EventStore(10, 1000);
    store.append(1, "one");
    store.append(2, "other stream");
    const mark = store.append(1, "two");
    store.append(1, "three");
    const position = parseEventId(mark) as { stream: number; seq: number };
    expect(store.after(1, position.seq)).toEqual([{ id: "1.4", data: "three" }]);
    expect(store.after(1, 0).map((e) => e.data)).toEqual(["one", "two", "three"]);
    expect(store.after(3, 0)).toEqual([]);
  });

  it("drops the oldest stream's oldest events past its count or size", () => {
    const byCount = new EventStore(3, 1000);
    for (const data of ["a", "b", "c", "d"]) byCount.append(1, data);
    expect(byCount.size).toBe(3);
    expect(byCount.after(1, 0).map((e) => e.data)).toEqual(["b", "c", "d"]);

    const bySize = new EventStore(100, 10);
    bySize.append(1, "12345");
    bySize.append(2, "12345");
    bySize.append(2, "12345");
    expect(bySize.has(1)).toBe(false);
    expect(bySize.after(2, 0).map((e) => e.id)).toEqual(["2.2", "2.3"]);
    bySize.clear();
    expect(bySize.size).toBe(0);
  });

  it("keeps one event even when it alone is over the size limit", () => {
    const store = new EventStore(100, 4);
    store.append(1, "too large");
    expect(store.size).toBe(1);
  });

  it("shares a pool with other sessions' stores: past its bytes the oldest event of any goes", () => {
    const pool = new ReplayPool(10);
    const idle = new EventStore(100, 100, pool);
    const busy = new EventStore(100, 100, pool);
    idle.append(1, "1234");
    idle.append(2, "5678");
    busy.append(1, "abcd");
    expect([idle.size, busy.size, pool.bytes]).toEqual([1, 1, 8]);
    expect(idle.has(1)).toBe(false);
    expect(idle.after(2, 0).map((e) => e.data)).toEqual(["5678"]);
    busy.append(1, "efghijklmnop");
    expect([idle.size, busy.size, pool.bytes]).toEqual([0, 1, 12]);
    busy.clear();
    expect(pool.bytes).toBe(0);
  });
});
