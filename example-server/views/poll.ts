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
 * as ui://poll. The host sends it the tool's input and result; a vote
 * calls the tool poll_vote through the host.
 */
type Poll = { id: string; question: string; options: { label: string; votes: number }[] };

const root = document.getElementById("root") as HTMLElement;
const app = new App({ name: "Poll", version: "1.0.0" });

function render(poll: Poll): void {
  const total = poll.options.reduce((sum, option) => sum + option.votes, 0);
  const heading = document.createElement("h1");
  heading.textContent = poll.question;
  const list = document.createElement("ul");
  for (const option of poll.options) {
    const share = total === 0 ? 0 : Math.round((option.votes / total) * 100);
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.textContent = option.label;
    button.addEventListener("click", () => void castVote(poll.id, option.label));
    const bar = document.createElement("span");
    bar.className = "bar";
    bar.style.width = `${share}%`;
    const votes = document.createElement("span");
    votes.className = "votes";
    votes.textContent = `${option.votes} vote${option.votes === 1 ? "" : "s"}`;
    item.append(button, bar, votes);
    list.append(item);
  }
  root.replaceChildren(heading, list);
}

async function castVote(id: string, option: string): Promise<void> {
  const result = await app.callServerTool({ name: "poll_vote", arguments: { id, option } });
  if (!result.isError) render(result.structuredContent as Poll);
}

// Before connect(): the host sends the input and the result once the view is ready.
app.ontoolinput = ({ arguments: input }) => {
  root.textContent = `Opening the poll "${String(input?.question ?? "")}"…`;
};
app.ontoolresult = (result) => {
  if (result.structuredContent) render(result.structuredContent as Poll);
};
await app.connect();
