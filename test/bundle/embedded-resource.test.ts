import { describe, expect, it } from "vitest";
import { embeddedResource } from "../../src/bundle/embedded-resource.js";

/** What a built bundle's static file reads as: the same contents `serve` gives (test/loader/static-resources). */
async function read(file: string, bytes: Uint8Array): Promise<unknown> {
  const definition = embeddedResource(file, bytes) as unknown as { read: () => unknown };
  return definition.read();
}

describe("a static file embedded in a build", () => {
  it("keeps a UTF-8 byte-order mark in its text, as serve does", async () => {
    const bytes = Buffer.from("\uFEFFname,city\n", "utf8");
    expect(await read("resources/excel.csv", bytes)).toEqual({ text: "\uFEFFname,city\n" });
  });

  it("is served as its bytes when its text is in another encoding", async () => {
    const bytes = Buffer.from("café\n", "latin1");
    expect(await read("resources/latin1.txt", bytes)).toBe(bytes);
  });
});
