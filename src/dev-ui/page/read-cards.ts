import { expandUriTemplate } from "../../define/uri-template-expand.js";
import {
  parseTemplateTokens,
  type TemplateVariable,
  templateVariables,
} from "../../define/uri-template-syntax.js";
import { Card, timed } from "./card.js";
import { h, uniqueId } from "./dom.js";
import { failure, promptMessages, resourceContents } from "./result-view.js";
import { REQUIRED } from "./schema-form.js";

type Reference = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

/**
 * Named text fields that suggest completions as they are typed
 * (completion/complete): a prompt's arguments, a template's variables.
 */
class CompletedFields {
  readonly element = h("div", { className: "object" });
  private inputs = new Map<string, HTMLInputElement>();
  private names = "";

  constructor(
    private readonly complete: (
      argument: string,
      value: string,
      others: Record<string, string>,
    ) => Promise<string[]>,
  ) {}

  /** Keeps the fields (and what was typed) of names that stay. */
  set(fields: readonly { name: string; description?: string; required?: boolean }[]): void {
    const names = JSON.stringify(fields);
    if (names === this.names) return;
    this.names = names;
    const before = this.inputs;
    this.inputs = new Map();
    this.element.replaceChildren(
      ...fields.map(({ name, description, required }) => {
        const id = uniqueId("field");
        const list = h("datalist", { id: `${id}-list` });
        const input =
          before.get(name) ??
          h("input", { id, name, type: "text", list: `${id}-list`, autocomplete: "off" });
        input.required = required === true;
        input.oninput = () => void this.suggest(name, input, list);
        this.inputs.set(name, input);
        return h(
          "div",
          { className: "field" },
          h("div", {}, h("label", { for: input.id }, name), required ? REQUIRED() : null),
          input,
          list,
          description ? h("small", { className: "hint" }, description) : null,
        );
      }),
    );
  }

  values(): Record<string, string> {
    const values: Record<string, string> = {};
    for (const [name, input] of this.inputs) if (input.value !== "") values[name] = input.value;
    return values;
  }

  private async suggest(
    name: string,
    input: HTMLInputElement,
    list: HTMLDataListElement,
  ): Promise<void> {
    const others = this.values();
    delete others[name];
    const values = await this.complete(name, input.value, others).catch(() => []);
    list.replaceChildren(...values.map((value) => h("option", { value })));
  }
}

abstract class ReadCard extends Card {
  protected readonly fields = new CompletedFields((argument, value, others) =>
    this.completions(argument, value, others),
  );
  protected readonly outcome = h("div", { className: "outcome", "aria-live": "polite" });
  private built = false;

  protected abstract readonly verb: string;
  protected abstract reference(): Reference;
  protected abstract run(values: Record<string, string>): Promise<HTMLElement>;

  protected build(): void {
    if (this.built) return;
    this.built = true;
    const form = h(
      "form",
      {
        className: "input",
        onsubmit: (event: Event) => {
          event.preventDefault();
          void this.submit();
        },
      },
      this.fields.element,
      h("button", { type: "submit", className: "run" }, this.verb),
    );
    this.body.append(form, this.outcome);
  }

  private async submit(): Promise<void> {
    this.outcome.replaceChildren(h("p", { className: "hint" }, "asking…"));
    const done = await timed(
      this.context,
      `${this.verb.toLowerCase()} ${this.key.slice(this.key.indexOf(":") + 1)}`,
      () => this.run(this.fields.values()),
    );
    this.outcome.replaceChildren(done.ok ? done.value : failure(done.error));
  }

  private async completions(
    argument: string,
    value: string,
    others: Record<string, string>,
  ): Promise<string[]> {
    if (!this.context.completes()) return [];
    const { completion } = await this.context.client.complete({
      ref: this.reference(),
      argument: { name: argument, value },
      context: { arguments: others },
    });
    return completion.values;
  }
}

export class PromptCard extends ReadCard {
  protected readonly verb = "Get";
  private name = "";

  protected changed(prompt: Record<string, unknown>): void {
    this.name = String(prompt.name);
    this.build();
    this.fields.set(
      (prompt.arguments ?? []) as { name: string; description?: string; required?: boolean }[],
    );
  }

  protected reference(): Reference {
    return { type: "ref/prompt", name: this.name };
  }

  protected async run(values: Record<string, string>): Promise<HTMLElement> {
    return promptMessages(
      await this.context.client.getPrompt({ name: this.name, arguments: values }),
    );
  }
}

/** What to type in a template variable's field, where it is more than its value. */
function variableHint({ explode, prefix }: TemplateVariable): string | undefined {
  if (explode) return 'a list: items separated by "," (an item\'s own "," as %2C)';
  if (prefix !== undefined) {
    return `at most ${prefix} characters: a longer value is cut to its first ${prefix}`;
  }
  return undefined;
}

/**
 * A resource at a fixed URI, or a template whose variables are fields. The
 * URI is expanded as mcp-dir's own templates read it back (RFC 6570).
 */
export class ResourceCard extends ReadCard {
  protected readonly verb = "Read";
  private address = "";

  protected changed(resource: Record<string, unknown>): void {
    this.address = String(resource.uri ?? resource.uriTemplate);
    this.build();
    const variables =
      resource.uriTemplate === undefined
        ? []
        : templateVariables(parseTemplateTokens(this.address));
    this.fields.set(
      variables.map((variable) => ({
        name: variable.name,
        description: variableHint(variable),
        required: true,
      })),
    );
  }

  protected reference(): Reference {
    return { type: "ref/resource", uri: this.address };
  }

  protected async run(values: Record<string, string>): Promise<HTMLElement> {
    const uri = this.key.startsWith("template:")
      ? expandUriTemplate(this.address, values)
      : this.address;
    const { contents } = await this.context.client.readResource({ uri }, { cacheMode: "bypass" });
    return h(
      "div",
      { className: "result" },
      contents.map((item) => resourceContents(item as never)),
    );
  }
}
