import { defineTool } from "mcp-dir";
import { z } from "zod";

/**
 * tools/calculator.ts is the tool "calculator": a default export takes its
 * name from the file. The input is a zod shape; clients see it as JSON Schema,
 * and arguments are validated before the handler runs.
 */
export default defineTool({
  title: "Calculator",
  description: "Performs basic arithmetic on two numbers",
  input: {
    operation: z
      .enum(["add", "subtract", "multiply", "divide"])
      .describe("The arithmetic operation to perform"),
    a: z.number().describe("The first operand"),
    b: z.number().describe("The second operand"),
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: ({ operation, a, b }) => {
    // A thrown error becomes a tool result with isError: true and this message.
    if (operation === "divide" && b === 0) throw new Error("Cannot divide by zero");
    const result = {
      add: a + b,
      subtract: a - b,
      multiply: a * b,
      divide: a / b,
    }[operation];
    // A string becomes one text content block.
    return String(result);
  },
});
