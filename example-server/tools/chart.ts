import { defineTool, image, text } from "mcp-dir";
import { z } from "zod";
import { Canvas, type Rgb } from "./_png.js";

/**
 * tools/chart.ts is the tool "chart". A handler may return content blocks:
 * here a text block and an image block, made with the text() and image()
 * helpers (image() base64-encodes the bytes). Returning the bytes alone,
 * or { data, mimeType }, works too.
 */
const COLORS: Record<string, Rgb> = {
  blue: [37, 99, 235],
  green: [22, 163, 74],
  orange: [234, 88, 12],
};
const BAR = 16;
const GAP = 4;
const HEIGHT = 96;
const PADDING = 8;

export default defineTool({
  title: "Bar chart",
  description: "Draws a bar chart of a list of numbers and returns it as a PNG image",
  input: {
    values: z.array(z.number().min(0)).min(1).max(40).describe("The bar heights, 0 or more"),
    color: z.enum(["blue", "green", "orange"]).default("blue").describe("The bars' color"),
  },
  annotations: { readOnlyHint: true },
  handler: ({ values, color }) => {
    const width = PADDING * 2 + values.length * (BAR + GAP) - GAP;
    const canvas = new Canvas(width, HEIGHT + PADDING * 2, [255, 255, 255]);
    const max = Math.max(...values) || 1;
    values.forEach((value, index) => {
      const height = Math.round((value / max) * HEIGHT);
      const x = PADDING + index * (BAR + GAP);
      canvas.fill(x, PADDING + HEIGHT - height, BAR, height, COLORS[color] ?? [0, 0, 0]);
    });
    canvas.fill(PADDING / 2, PADDING + HEIGHT, width - PADDING, 1, [100, 100, 100]);
    return [
      text(`A bar chart of ${values.length} values (max ${max}), ${width}×${canvas.height} pixels`),
      image(canvas.toPng(), "image/png"),
    ];
  },
});
