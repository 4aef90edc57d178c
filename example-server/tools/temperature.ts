import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { defineTool } from "mcp-dir";
import * as v from "valibot";

/**
 * tools/temperature.ts is written with valibot instead of zod: any Standard
 * Schema library that gives its JSON Schema will do (ArkType's type({...})
 * as it is). valibot gives it through toStandardJsonSchema; the arguments and
 * the result are validated by valibot itself, and its check (below absolute
 * zero) runs though JSON Schema cannot say it.
 */
const Unit = v.picklist(["celsius", "fahrenheit", "kelvin"]);

const TO_KELVIN = {
  celsius: (t: number) => t + 273.15,
  fahrenheit: (t: number) => ((t - 32) * 5) / 9 + 273.15,
  kelvin: (t: number) => t,
};

const FROM_KELVIN = {
  celsius: (k: number) => k - 273.15,
  fahrenheit: (k: number) => ((k - 273.15) * 9) / 5 + 32,
  kelvin: (k: number) => k,
};

export default defineTool({
  title: "Temperature converter",
  description: "Converts a temperature between Celsius, Fahrenheit and Kelvin",
  input: toStandardJsonSchema(
    v.pipe(
      v.object({
        value: v.pipe(v.number(), v.description("The temperature to convert")),
        from: v.pipe(Unit, v.description("The unit of value")),
        to: v.pipe(Unit, v.description("The unit to convert to")),
      }),
      v.check(({ value, from }) => TO_KELVIN[from](value) >= 0, "That is below absolute zero"),
    ),
  ),
  output: toStandardJsonSchema(v.object({ value: v.number(), unit: Unit })),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: ({ value, from, to }) => {
    const converted = FROM_KELVIN[to](TO_KELVIN[from](value));
    return { value: Math.round(converted * 100) / 100, unit: to };
  },
});
