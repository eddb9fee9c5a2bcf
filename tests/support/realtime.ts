// Helpers for driving the official realtime-js (through supabase-js) in tests.
import type { RealtimeChannel, SupabaseClient } from "@supabase/supabase-js";

export interface Received {
  event: string;
  payload: Record<string, unknown>;
  meta?: { id?: string };
}

export interface Joined {
  channel: RealtimeChannel;
  status: "SUBSCRIBED" | "CHANNEL_ERROR" | "TIMED_OUT" | "CLOSED";
  error?: string;
  events: Received[];
  system: Record<string, unknown>[];
  closed: boolean;
}

/**
 * Joins `topic` (private unless told otherwise) and resolves on the first answer. A refused
 * channel is removed, so realtime-js does not keep retrying it.
 */
export async function join(
  client: SupabaseClient<never> | SupabaseClient,
  topic: string,
  opts: {
    private?: boolean;
    self?: boolean;
    ack?: boolean;
    presenceKey?: string;
    /** How long the join may wait for its answer (supabase-js's subscribe timeout). */
    timeoutMs?: number;
  } = {},
): Promise<Joined> {
  await client.realtime.setAuth();
  const channel = client.channel(topic, {
    config: {
      private: opts.private ?? true,
      broadcast: { self: opts.self ?? false, ack: opts.ack ?? false },
      ...(opts.presenceKey ? { presence: { key: opts.presenceKey } } : {}),
    },
  });
  const joined: Joined = {
    channel,
    status: "TIMED_OUT",
    events: [],
    system: [],
    closed: false,
  };
  channel.on("broadcast", { event: "*" }, (m: Record<string, unknown>) =>
    joined.events.push({
      event: String(m.event),
      payload: (m.payload ?? {}) as Record<string, unknown>,
      meta: m.meta as Received["meta"],
    }),
  );
  channel.on("system", {}, (p: Record<string, unknown>) => joined.system.push(p));
  await new Promise<void>((resolve) => {
    let settled = false;
    channel.subscribe((status, err) => {
      if (status === "CLOSED") joined.closed = true;
      if (settled) return;
      settled = true;
      joined.status = status;
      joined.error = err?.message;
      resolve();
    }, opts.timeoutMs ?? 10_000);
  });
  if (joined.status !== "SUBSCRIBED") await client.removeChannel(channel);
  return joined;
}

/** Polls until `check` returns a truthy value (or throws after `ms`). */
export async function waitFor<T>(
  check: () => T | undefined | null | false,
  ms = 5_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > until) throw new Error("waitFor: timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
