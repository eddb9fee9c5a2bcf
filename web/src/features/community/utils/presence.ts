/** One user in a chat's Presence state (several tabs of a user count once). */
export type PresenceMember = { userId: string; name: string; typing: boolean; isMe: boolean };

/**
 * Realtime Presence state (`{ [key]: metas[] }`, key = user id) as one entry per user, sorted by
 * name; a user types when any of their tabs does. Metas without a usable shape are skipped.
 */
export function readPresence(state: Record<string, unknown[]>, meId: string): PresenceMember[] {
  const members: PresenceMember[] = [];
  for (const [userId, metas] of Object.entries(state)) {
    if (!Array.isArray(metas) || metas.length === 0) continue;
    let name = "";
    let typing = false;
    for (const meta of metas) {
      if (typeof meta !== "object" || meta === null) continue;
      const m = meta as { name?: unknown; typing?: unknown };
      if (typeof m.name === "string" && m.name !== "") name = m.name;
      if (m.typing === true) typing = true;
    }
    members.push({ userId, name, typing, isMe: userId === meId });
  }
  return members.sort((a, b) => a.name.localeCompare(b.name) || a.userId.localeCompare(b.userId));
}
