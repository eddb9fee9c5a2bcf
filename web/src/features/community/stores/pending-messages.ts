import { create } from "zustand";

/** A message sent optimistically: shown at once, then replaced by the stored one (same id). */
export type PendingMessage = {
  id: string;
  groupId: string;
  content: string;
  attachmentUrl: string | null;
  createdAt: string;
  status: "sending" | "failed";
  error: string | null;
};

type PendingState = {
  byId: Record<string, PendingMessage>;
  actions: {
    add: (message: PendingMessage) => void;
    setStatus: (id: string, status: PendingMessage["status"], error?: string | null) => void;
    remove: (id: string) => void;
  };
};

const usePendingStore = create<PendingState>((set) => ({
  byId: {},
  actions: {
    add: (message) => set((s) => ({ byId: { ...s.byId, [message.id]: message } })),
    setStatus: (id, status, error = null) =>
      set((s) => {
        const current = s.byId[id];
        if (!current) return s;
        return { byId: { ...s.byId, [id]: { ...current, status, error } } };
      }),
    remove: (id) =>
      set((s) => {
        if (!(id in s.byId)) return s;
        const { [id]: _removed, ...rest } = s.byId;
        return { byId: rest };
      }),
  },
}));

/** The group's messages still sending or failed, oldest first. */
export function usePendingMessages(groupId: string): PendingMessage[] {
  const byId = usePendingStore((s) => s.byId);
  return Object.values(byId)
    .filter((m) => m.groupId === groupId)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export function usePendingActions() {
  return usePendingStore((s) => s.actions);
}
