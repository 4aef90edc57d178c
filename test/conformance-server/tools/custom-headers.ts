import { defineTool } from "mcp-dir";
import { z } from "zod";

// A parameter mirrored into an HTTP header: 2026-07-28 clients send it as
// Mcp-Param-Region, and the server checks the header against the body.
export default defineTool({
  name: "test_custom_headers",
  description: "Echoes a region that travels in the Mcp-Param-Region header too",
  input: {
    region: z.string().meta({ "x-mcp-header": "Region" }).describe("Where to run"),
    query: z.string().optional().describe("What to run"),
  },
  handler: ({ region }) => `Region: ${region}`,
});
