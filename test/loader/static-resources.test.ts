import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToDirectory } from "../helpers/directory-client.js";
import { closeSdkClients, type SdkConnection } from "../server/helpers/sdk-client.js";
import { createServerDir, removeServerDirs } from "./helpers/server-dir.js";

afterAll(async () => {
  await closeSdkClients();
  await removeServerDirs();
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const BINARY = new Uint8Array([0, 159, 146, 150, 255]);

describe("static files under resources/, through a real client", () => {
  let dir: string;
  let connection: SdkConnection;

  beforeAll(async () => {
    dir = await createServerDir({
      "resources/guide.md": "# Guide\n",
      "resources/data/config.json": '{ "theme": "dark" }\n',
      "resources/docs/Getting started.txt": "Héllo\n",
      "resources/logo.png": PNG,
      "resources/blob.bin": BINARY,
      "resources/LICENSE": "MIT\n",
      "resources/status.ts":
        'export default { uri: "status://now", description: "Code, not a static file", read: () => "up" };\n',
    });
    connection = await connectToDirectory(dir);
  });

  it("lists each with a file:/// URI from its path, a mime type by extension, its size, name and title", async () => {
    const { resources } = await connection.client.listResources();
    expect(resources).toEqual([
      {
        uri: "file:///LICENSE",
        name: "LICENSE",
        title: "LICENSE",
        mimeType: "text/plain",
        size: 4,
      },
      {
        uri: "file:///blob.bin",
        name: "blob.bin",
        title: "Blob",
        mimeType: "application/octet-stream",
        size: 5,
      },
      {
        uri: "file:///data/config.json",
        name: "data/config.json",
        title: "Config",
        mimeType: "application/json",
        size: 20,
      },
      {
        uri: "file:///docs/Getting%20started.txt",
        name: "docs/Getting started.txt",
        title: "Getting started",
        mimeType: "text/plain",
        size: 7,
      },
      {
        uri: "file:///guide.md",
        name: "guide.md",
        title: "Guide",
        mimeType: "text/markdown",
        size: 8,
      },
      { uri: "file:///logo.png", name: "logo.png", title: "Logo", mimeType: "image/png", size: 12 },
      { uri: "status://now", name: "status", description: "Code, not a static file" },
    ]);
  });

  it("serves text types as text and other types as base64 blobs", async () => {
    const read = (uri: string) => connection.client.readResource({ uri });
    expect(await read("file:///docs/Getting%20started.txt")).toEqual({
      contents: [
        { uri: "file:///docs/Getting%20started.txt", mimeType: "text/plain", text: "Héllo\n" },
      ],
    });
    expect(await read("file:///data/config.json")).toEqual({
      contents: [
        {
          uri: "file:///data/config.json",
          mimeType: "application/json",
          text: '{ "theme": "dark" }\n',
        },
      ],
    });
    expect(await read("file:///logo.png")).toEqual({
      contents: [
        {
          uri: "file:///logo.png",
          mimeType: "image/png",
          blob: Buffer.from(PNG).toString("base64"),
        },
      ],
    });
    expect(await read("file:///blob.bin")).toEqual({
      contents: [
        {
          uri: "file:///blob.bin",
          mimeType: "application/octet-stream",
          blob: Buffer.from(BINARY).toString("base64"),
        },
      ],
    });
  });

  it("reads the file at each request, so edits show", async () => {
    await writeFile(join(dir, "resources", "guide.md"), "# Guide, edited\n");
    const { contents } = await connection.client.readResource({ uri: "file:///guide.md" });
    expect(contents).toEqual([
      { uri: "file:///guide.md", mimeType: "text/markdown", text: "# Guide, edited\n" },
    ]);
  });
});

describe("static text files whose bytes are not plain UTF-8, through a real client", () => {
  const LATIN1 = Buffer.from("café\n", "latin1");
  const WITH_BOM = Buffer.from("\uFEFFname,city\nZoë,Zürich\n", "utf8");
  let connection: SdkConnection;

  beforeAll(async () => {
    const dir = await createServerDir({
      "resources/latin1.txt": LATIN1,
      "resources/excel.csv": WITH_BOM,
    });
    connection = await connectToDirectory(dir);
  });

  it("serves a text file in another encoding as its bytes, which text would lose", async () => {
    expect(await connection.client.readResource({ uri: "file:///latin1.txt" })).toEqual({
      contents: [
        { uri: "file:///latin1.txt", mimeType: "text/plain", blob: LATIN1.toString("base64") },
      ],
    });
  });

  it("keeps a UTF-8 byte-order mark, so the text is the file's", async () => {
    const { contents } = await connection.client.readResource({ uri: "file:///excel.csv" });
    expect(contents).toEqual([
      { uri: "file:///excel.csv", mimeType: "text/csv", text: "\uFEFFname,city\nZoë,Zürich\n" },
    ]);
    const [item] = contents;
    expect(item && "text" in item && Buffer.from(item.text, "utf8").equals(WITH_BOM)).toBe(true);
  });
});
