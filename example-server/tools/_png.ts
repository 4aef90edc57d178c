import { crc32, deflateSync } from "node:zlib";

/**
 * A file whose name starts with "_" is never loaded as a definition: it is a
 * helper for its neighbours (here, tools/chart.ts). So are folders starting
 * with "_", hidden files, tests (*.test.ts, *.spec.ts) and *.d.ts files.
 */
export type Rgb = readonly [number, number, number];

/** A width × height RGB canvas that encodes itself as a PNG. */
export class Canvas {
  private readonly pixels: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb,
  ) {
    this.pixels = new Uint8Array(width * height * 3);
    this.fill(0, 0, width, height, background);
  }

  fill(x: number, y: number, w: number, h: number, color: Rgb): void {
    for (let row = Math.max(0, y); row < Math.min(this.height, y + h); row++) {
      for (let col = Math.max(0, x); col < Math.min(this.width, x + w); col++) {
        this.pixels.set(color, (row * this.width + col) * 3);
      }
    }
  }

  toPng(): Uint8Array {
    const stride = this.width * 3;
    // Each scanline starts with its filter type: 0, none.
    const raw = new Uint8Array((stride + 1) * this.height);
    for (let row = 0; row < this.height; row++) {
      raw.set(this.pixels.subarray(row * stride, (row + 1) * stride), row * (stride + 1) + 1);
    }
    const header = new Uint8Array(13);
    const view = new DataView(header.buffer);
    view.setUint32(0, this.width);
    view.setUint32(4, this.height);
    header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, no interlace
    return concat([
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk("IHDR", header),
      chunk("IDAT", deflateSync(raw)),
      chunk("IEND", new Uint8Array()),
    ]);
  }
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const typed = concat([new TextEncoder().encode(type), data]);
  const out = new Uint8Array(data.length + 12);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(typed, 4);
  view.setUint32(8 + data.length, crc32(typed));
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
