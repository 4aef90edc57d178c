/*---
title: Poll
description: A poll people vote in, with the votes so far
prefersBorder: true
---*/
import { App } from "@modelcontextprotocol/ext-apps";
import "./poll.css";

/**
 * views/poll.ts is the view of the tool "poll": mcp-dir bundles it, with
 * poll.css and the official view-side library, into one HTML page, served
 * as ui://poll. The host sends it the tool's input (the question and its
 * answers, shown at once) and then its result (the poll, with its votes);
 * a vote calls the tool poll_vote through the host.
 */
type Poll = { id: string; question: string; options: { label: string; votes: number }[] };

const root = document.getElementById("root") as HTMLElement;
const heading = document.createElement("h1");
const list = document.createElement("ul");
root.append(heading, list);
const app = new App({ name: "Poll", version: "1.0.0" });

/** One row per answer; without a poll yet (only the input came), nothing to vote in. */
function render(labels: string[], poll?: Poll): void {
  const total = poll?.options.reduce((sum, option) => sum + option.votes, 0) ?? 0;
  list.replaceChildren(
    ...labels.map((label) => {
      const votes = poll?.options.find((option) => option.label === label)?.votes;
      const button = document.createElement("button");
      button.textContent = label;
      button.disabled = poll === undefined;
      if (poll) button.addEventListener("click", () => void castVote(poll.id, label));
      const bar = document.createElement("span");
      bar.className = "bar";
      bar.style.width = `${total === 0 || votes === undefined ? 0 : (votes / total) * 100}%`;
      const count = document.createElement("span");
      count.className = "votes";
      count.textContent = votes === undefined ? "…" : `${votes} vote${votes === 1 ? "" : "s"}`;
      const item = document.createElement("li");
      item.append(button, bar, count);
      return item;
    }),
  );
}

function showPoll(poll: Poll): void {
  heading.textContent = poll.question;
  render(
    poll.options.map((option) => option.label),
    poll,
  );
}

async function castVote(id: string, option: string): Promise<void> {
  const result = await app.callServerTool({ name: "poll_vote", arguments: { id, option } });
  if (!result.isError) showPoll(result.structuredContent as Poll);
}

// Set before connect(): the host sends the input, then the result, once the view is ready.
app.ontoolinput = ({ arguments: input }) => {
  heading.textContent = String(input?.question ?? "");
  render(Array.isArray(input?.options) ? input.options.map(String) : []);
};
app.ontoolresult = (result) => {
  if (result.structuredContent) showPoll(result.structuredContent as Poll);
};
await app.connect();
