import type { Card, PageContext, Reported } from "./card.js";
import type { Lists } from "./connection.js";
import { h, setChildren } from "./dom.js";
import { PromptCard, ResourceCard } from "./read-cards.js";
import { ToolCard } from "./tool-card.js";

/** The report's problems as the server says them (see src/dev-ui/report.ts). */
export interface Problem {
  readonly file: string;
  readonly export?: string;
  readonly message: string;
}

const ELSEWHERE = "(not in the load report yet)";

function folderOf(file: string): string {
  const slash = file.lastIndexOf("/");
  return slash === -1 ? "." : file.slice(0, slash);
}

/**
 * Every definition, grouped by the folder and file it came from, with each
 * failing file's problems where its definitions are (or would be). Cards are
 * kept by key across updates: a saved file changes its card in place.
 */
export class Catalog {
  readonly element = h("div", { className: "catalog" });
  private readonly cards = new Map<string, Card>();
  private readonly folders = new Map<string, HTMLElement>();
  private readonly files = new Map<string, { element: HTMLElement; problems: HTMLElement }>();
  private lists: Lists = { tools: [], prompts: [], resources: [], templates: [] };
  private reported = new Map<string, Reported & { order: number }>();
  private problems: readonly Problem[] = [];

  constructor(private readonly context: PageContext) {}

  showLists(lists: Lists): void {
    this.lists = lists;
    this.render();
  }

  showReport(definitions: readonly Reported[], problems: readonly Problem[]): void {
    this.reported = new Map(definitions.map((item, order) => [item.key, { ...item, order }]));
    this.problems = problems;
    this.render();
  }

  private items(): [string, Record<string, unknown>][] {
    const { tools, prompts, resources, templates } = this.lists;
    return [
      ...tools.map((item) => [`tool:${item.name}`, item] as [string, Record<string, unknown>]),
      ...prompts.map((item) => [`prompt:${item.name}`, item] as [string, Record<string, unknown>]),
      ...resources.map(
        (item) => [`resource:${item.uri}`, item] as [string, Record<string, unknown>],
      ),
      ...templates.map(
        (item) => [`template:${item.uriTemplate}`, item] as [string, Record<string, unknown>],
      ),
    ];
  }

  private card(key: string): Card {
    let card = this.cards.get(key);
    if (!card) {
      card = key.startsWith("tool:")
        ? new ToolCard(key, this.context)
        : key.startsWith("prompt:")
          ? new PromptCard(key, this.context)
          : new ResourceCard(key, this.context);
      this.cards.set(key, card);
    }
    return card;
  }

  private render(): void {
    const byFile = new Map<string, { order: number; card: Card }[]>();
    const listed = new Set<string>();
    for (const [key, item] of this.items()) {
      listed.add(key);
      const reported = this.reported.get(key);
      const card = this.card(key);
      card.update(item, reported);
      const file = reported?.file ?? ELSEWHERE;
      byFile.set(file, [...(byFile.get(file) ?? []), { order: reported?.order ?? 0, card }]);
    }
    for (const [key, card] of [...this.cards]) {
      if (listed.has(key)) continue;
      this.cards.delete(key);
      card.dispose();
    }
    const problemsOf = new Map<string, Problem[]>();
    for (const problem of this.problems) {
      problemsOf.set(problem.file, [...(problemsOf.get(problem.file) ?? []), problem]);
      if (!byFile.has(problem.file)) byFile.set(problem.file, []);
    }
    const folders = new Map<string, string[]>();
    for (const file of [...byFile.keys()].sort()) {
      const folder = file === ELSEWHERE ? ELSEWHERE : folderOf(file);
      folders.set(folder, [...(folders.get(folder) ?? []), file]);
    }
    const folderNodes = [...folders.keys()].sort().map((folder) => {
      const section = this.folderElement(folder);
      const fileNodes = (folders.get(folder) ?? []).map((file) => {
        const { element, problems } = this.fileElement(file);
        const said = problemsOf.get(file) ?? [];
        setChildren(problems, said.map(problemElement));
        const cards = (byFile.get(file) ?? [])
          .sort((a, b) => a.order - b.order)
          .map(({ card }) => card.element);
        setChildren(element, [element.firstElementChild as Element, problems, ...cards]);
        element.classList.toggle("failing", said.length > 0);
        return element;
      });
      setChildren(section, [section.firstElementChild as Element, ...fileNodes]);
      return section;
    });
    setChildren(this.element, folderNodes);
    for (const file of [...this.files.keys()]) if (!byFile.has(file)) this.files.delete(file);
    for (const folder of [...this.folders.keys()])
      if (!folders.has(folder)) this.folders.delete(folder);
  }

  private folderElement(folder: string): HTMLElement {
    let section = this.folders.get(folder);
    if (!section) {
      const title = folder === ELSEWHERE || folder === "." ? folder : `${folder}/`;
      section = h("section", { className: "folder", "data-folder": folder }, h("h2", {}, title));
      this.folders.set(folder, section);
    }
    return section;
  }

  private fileElement(file: string): { element: HTMLElement; problems: HTMLElement } {
    let found = this.files.get(file);
    if (!found) {
      const name = file.slice(file.lastIndexOf("/") + 1);
      const problems = h("div", { className: "problems" });
      found = {
        element: h(
          "section",
          { className: "file", "data-file": file },
          h("h3", {}, name),
          problems,
        ),
        problems,
      };
      this.files.set(file, found);
    }
    return found;
  }
}

function problemElement(problem: Problem): HTMLElement {
  return h(
    "div",
    { className: "problem", role: "alert" },
    problem.export === undefined
      ? null
      : h("span", { className: "export" }, `export ${problem.export}: `),
    h("pre", {}, problem.message),
  );
}
