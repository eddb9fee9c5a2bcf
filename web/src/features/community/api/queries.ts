/**
 * Query keys of the community chat. Keys run generic → specific. The group chat stream
 * (`hooks/use-group-chat-stream.ts`) writes into the same keys the screens fetch with, so a new
 * message lands in the list on screen.
 */

/** A chat group and its messages: `['groups', groupId]`, `['groups', groupId, 'messages']`. */
export const groupKeys = {
  all: ["groups"] as const,
  detail: (groupId: string) => [...groupKeys.all, groupId] as const,
  messages: (groupId: string) => [...groupKeys.detail(groupId), "messages"] as const,
};
