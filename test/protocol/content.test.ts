import { describe, expect, it } from "vitest";
import {
  audio,
  embeddedResource,
  image,
  isContentBlock,
  resourceLink,
  text,
  toBase64,
} from "../../src/protocol/index.js";

describe("content helpers", () => {
  it("build each block", () => {
    expect(text("hi")).toEqual({ type: "text", text: "hi" });
    expect(image(new Uint8Array([1, 2, 3]), "image/png")).toEqual({
      type: "image",
      data: "AQID",
      mimeType: "image/png",
    });
    expect(audio("UklGRg==", "audio/wav")).toEqual({
      type: "audio",
      data: "UklGRg==",
      mimeType: "audio/wav",
    });
    expect(embeddedResource({ uri: "config://app", text: "{}" })).toEqual({
      type: "resource",
      resource: { uri: "config://app", text: "{}" },
    });
    expect(resourceLink({ uri: "file:///a", name: "a", mimeType: "text/plain" })).toEqual({
      type: "resource_link",
      uri: "file:///a",
      name: "a",
      mimeType: "text/plain",
    });
  });

  it("toBase64 encodes bytes of a view and passes strings through", () => {
    const backing = new Uint8Array([9, 104, 105, 9]);
    expect(toBase64(backing.subarray(1, 3))).toBe("aGk=");
    expect(toBase64(Buffer.from("hi"))).toBe("aGk=");
    expect(toBase64("already")).toBe("already");
    expect(toBase64(new Uint8Array())).toBe("");
  });

  it("isContentBlock knows the five block types", () => {
    for (const type of ["text", "image", "audio", "resource", "resource_link"]) {
      expect(isContentBlock({ type })).toBe(true);
    }
    for (const value of [{ type: "video" }, { type: 1 }, {}, null, "text", ["text"]]) {
      expect(isContentBlock(value)).toBe(false);
    }
  });
});
