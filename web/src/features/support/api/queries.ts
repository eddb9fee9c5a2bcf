/**
 * Query keys of support tickets. Keys run generic → specific. The ticket stream
 * (`hooks/use-ticket-stream.ts`) writes into the same keys the screens fetch with, so a reply or a
 * status change lands on screen.
 */

/** A support ticket and its thread: `['tickets', ticketId]`, `['tickets', ticketId, 'messages']`. */
export const ticketKeys = {
  all: ["tickets"] as const,
  detail: (ticketId: string) => [...ticketKeys.all, ticketId] as const,
  messages: (ticketId: string) => [...ticketKeys.detail(ticketId), "messages"] as const,
};
