import { z } from "zod";

/**
 * The polls tools/poll.ts opens and tools/poll_vote.ts counts votes in, kept
 * in memory: a real server would keep them in a database.
 */
export type Poll = {
  id: string;
  question: string;
  options: { label: string; votes: number }[];
};

/** A poll as the tools return it (their output schema). */
export const PollShape = {
  id: z.string(),
  question: z.string(),
  options: z.array(z.object({ label: z.string(), votes: z.number().int() })),
};

const polls = new Map<string, Poll>();

export function openPoll(question: string, labels: readonly string[]): Poll {
  const poll = {
    id: `poll-${polls.size + 1}`,
    question,
    options: labels.map((label) => ({ label, votes: 0 })),
  };
  polls.set(poll.id, poll);
  return poll;
}

export function vote(id: string, label: string): Poll {
  const poll = polls.get(id);
  if (poll === undefined) throw new Error(`There is no poll "${id}"; open one with the poll tool`);
  const option = poll.options.find((candidate) => candidate.label === label);
  if (option === undefined) {
    throw new Error(`"${label}" is not an answer of "${poll.question}"`);
  }
  option.votes++;
  return poll;
}

/** "Lunch? pizza 2, sushi 1": what a client that shows no view reads. */
export function summary(poll: Poll): string {
  const counts = poll.options.map(({ label, votes }) => `${label} ${votes}`).join(", ");
  return `${poll.question} ${counts}`;
}
