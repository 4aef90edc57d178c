import { h, uniqueId } from "./dom.js";

/**
 * A form generated from a JSON Schema (a tool's input, an elicitation's
 * requested schema): nested objects as fieldsets, arrays as lists to add to,
 * enums as selects, defaults filled in, required fields marked. What it
 * cannot render as fields (a union, say) is a JSON text area. `initial`
 * (what was typed in the form it replaces) wins over the defaults, so a
 * form rebuilt after a save keeps what the user typed.
 */

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  title?: string;
  format?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
};

/** The mark of a required field, beside its label (not in it: the label is the field's name). */
export const REQUIRED = () => h("span", { className: "required", title: "required" }, " *");

export interface Field {
  readonly element: HTMLElement;
  /** The value as typed; undefined leaves it out. */
  read(): unknown;
}

/** The form of an object schema: each property a field. */
export function objectForm(schema: JsonSchema, initial: unknown): Field {
  return objectField(schema, "", initial, true);
}

function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== "null");
  if (schema.type !== undefined) return schema.type;
  if (schema.properties) return "object";
  if (schema.enum) return "enum";
  return undefined;
}

/** `X | null` and `anyOf: [X, {type: "null"}]` read as X. */
function unwrapNullable(schema: JsonSchema): JsonSchema {
  const choices = schema.anyOf ?? schema.oneOf;
  if (!choices) return schema;
  const others = choices.filter((choice) => choice.type !== "null");
  return others.length === 1
    ? { ...others[0], description: schema.description ?? others[0]?.description }
    : schema;
}

function fieldFor(schema: JsonSchema, name: string, required: boolean, initial: unknown): Field {
  const resolved = unwrapNullable(schema);
  const start = initial !== undefined ? initial : resolved.default;
  if (resolved.enum) return enumField(resolved, name, required, start);
  switch (typeOf(resolved)) {
    case "object":
      return resolved.properties
        ? objectField(resolved, name, start, required)
        : jsonField(resolved, name, required, start);
    case "array":
      return resolved.items
        ? arrayField(resolved, name, required, start)
        : jsonField(resolved, name, required, start);
    case "boolean":
      return booleanField(resolved, name, required, start);
    case "number":
    case "integer":
      return numberField(resolved, name, required, start);
    case "string":
      return stringField(resolved, name, required, start);
    default:
      return jsonField(resolved, name, required, start);
  }
}

function labelled(
  schema: JsonSchema,
  name: string,
  required: boolean,
  input: HTMLElement,
  id: string,
): HTMLElement {
  return h(
    "div",
    { className: "field" },
    h("div", {}, h("label", { for: id }, schema.title ?? name), required ? REQUIRED() : null),
    input,
    schema.description ? h("small", { className: "hint" }, schema.description) : null,
  );
}

function objectField(schema: JsonSchema, name: string, initial: unknown, required: boolean): Field {
  const values = (initial !== null && typeof initial === "object" ? initial : {}) as Record<
    string,
    unknown
  >;
  const needed = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(
    ([key, property]) => [key, fieldFor(property, key, needed.has(key), values[key])] as const,
  );
  const children = fields.map(([, field]) => field.element);
  const element =
    name === ""
      ? h("div", { className: "object" }, children)
      : h(
          "fieldset",
          { className: "object" },
          h("legend", {}, schema.title ?? name, required ? REQUIRED() : null),
          schema.description ? h("small", { className: "hint" }, schema.description) : null,
          children,
        );
  return {
    element,
    read() {
      const value: Record<string, unknown> = {};
      for (const [key, field] of fields) {
        const read = field.read();
        if (read !== undefined) value[key] = read;
      }
      return Object.keys(value).length === 0 && !required ? undefined : value;
    },
  };
}

function arrayField(schema: JsonSchema, name: string, required: boolean, initial: unknown): Field {
  const items = schema.items as JsonSchema;
  const list = h("ol", { className: "items" });
  const fields: Field[] = [];
  const add = (value: unknown) => {
    const field = fieldFor(items, `${name}[${fields.length}]`, true, value);
    fields.push(field);
    const remove = h(
      "button",
      { type: "button", className: "remove", title: "remove this item" },
      "−",
    );
    const item = h("li", {}, field.element, remove);
    remove.addEventListener("click", () => {
      fields.splice(fields.indexOf(field), 1);
      item.remove();
    });
    list.append(item);
  };
  if (Array.isArray(initial)) for (const value of initial) add(value);
  const id = uniqueId("add");
  const element = h(
    "fieldset",
    { className: "array" },
    h("legend", {}, schema.title ?? name, required ? REQUIRED() : null),
    schema.description ? h("small", { className: "hint" }, schema.description) : null,
    list,
    h(
      "button",
      { type: "button", id, className: "add", onclick: () => add(undefined) },
      `add ${name}`,
    ),
  );
  return {
    element,
    read() {
      const values = fields.map((field) => field.read()).filter((value) => value !== undefined);
      return values.length === 0 && !required ? undefined : values;
    },
  };
}

function enumField(schema: JsonSchema, name: string, required: boolean, initial: unknown): Field {
  const choices = schema.enum ?? [];
  const id = uniqueId("field");
  const select = h(
    "select",
    { id, name },
    required && initial !== undefined ? null : h("option", { value: "" }, "(not set)"),
    choices.map((choice, index) => h("option", { value: String(index) }, String(choice))),
  );
  const at = choices.indexOf(initial);
  if (at >= 0) select.value = String(at);
  return {
    element: labelled(schema, name, required, select, id),
    read: () => (select.value === "" ? undefined : choices[Number(select.value)]),
  };
}

function booleanField(
  schema: JsonSchema,
  name: string,
  required: boolean,
  initial: unknown,
): Field {
  const id = uniqueId("field");
  if (required || initial !== undefined) {
    const box = h("input", { id, name, type: "checkbox", checked: initial === true });
    return { element: labelled(schema, name, required, box, id), read: () => box.checked };
  }
  const select = h(
    "select",
    { id, name },
    h("option", { value: "" }, "(not set)"),
    h("option", { value: "true" }, "true"),
    h("option", { value: "false" }, "false"),
  );
  return {
    element: labelled(schema, name, required, select, id),
    read: () => (select.value === "" ? undefined : select.value === "true"),
  };
}

function numberField(schema: JsonSchema, name: string, required: boolean, initial: unknown): Field {
  const id = uniqueId("field");
  const input = h("input", {
    id,
    name,
    type: "number",
    step: schema.type === "integer" ? "1" : "any",
    min: schema.minimum,
    max: schema.maximum,
    required,
    value: typeof initial === "number" ? String(initial) : "",
  });
  return {
    element: labelled(schema, name, required, input, id),
    read: () => (input.value === "" ? undefined : Number(input.value)),
  };
}

const INPUT_TYPES: Record<string, string> = { email: "email", uri: "url", date: "date" };

function stringField(schema: JsonSchema, name: string, required: boolean, initial: unknown): Field {
  const id = uniqueId("field");
  const input = h("input", {
    id,
    name,
    type: INPUT_TYPES[schema.format ?? ""] ?? "text",
    required,
    value: typeof initial === "string" ? initial : "",
  });
  return {
    element: labelled(schema, name, required, input, id),
    read: () => (input.value === "" && !required ? undefined : input.value),
  };
}

/** What the form cannot show as fields: typed as JSON. */
function jsonField(schema: JsonSchema, name: string, required: boolean, initial: unknown): Field {
  const id = uniqueId("field");
  const area = h("textarea", {
    id,
    name,
    rows: 3,
    className: "json",
    placeholder: "JSON",
    value: initial === undefined ? "" : JSON.stringify(initial, null, 2),
  });
  return {
    element: labelled(schema, name, required, area, id),
    read() {
      if (area.value.trim() === "") return undefined;
      try {
        return JSON.parse(area.value);
      } catch {
        return area.value;
      }
    },
  };
}
