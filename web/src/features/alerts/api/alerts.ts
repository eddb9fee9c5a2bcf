import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Database } from "@/lib/database.types";
import { profileQueryKey } from "@/lib/profile-query";
import { supabase } from "@/lib/supabase";

/*
 * Alert delivery from the SPA (decision 0020): the user's own delivery options on `profiles`,
 * their per-symbol rules (`alert_symbol_rules`, RLS: own rows), mutes through
 * `mute_alert_symbol`, their recent alerts (`alerts_sent`, RLS: own rows) and the one-click
 * unsubscribe (`unsubscribe_alert_email`). The database enforces every rule; these mirror them.
 */
export const DIRECTIONS = ["pump", "dump", "both"] as const;
export type Direction = (typeof DIRECTIONS)[number];
export const COOLDOWNS = [15, 30, 60, 240, 1440] as const;
export const CONFLUENCE = [0, 2, 3, 4, 5] as const;
export const MUTE_MINUTES = [15, 60, 1440] as const;
/** Escalation steps offered (points of move; 0 = off). The database accepts 0 or 1-50. */
export const ESCALATION_STEPS = [0, 2, 5, 10, 20] as const;
export const DAILY_CAP_MAX = 500;
export const SYMBOL_PATTERN = /^\S{1,64}$/;

export type SymbolRule = Database["public"]["Tables"]["alert_symbol_rules"]["Row"];
export type SentAlert = Pick<
  Database["public"]["Tables"]["alerts_sent"]["Row"],
  | "id"
  | "symbol"
  | "exchange"
  | "pct"
  | "channel"
  | "window_minutes"
  | "created_at"
  | "symbols"
  | "symbol_count"
>;

export interface DeliveryOptions {
  alert_directions: Direction;
  alert_cooldown_minutes: number;
  alert_confluence_min: number;
  alert_escalation_step: number;
  alert_daily_cap: number | null;
  alert_quiet_start: string | null;
  alert_quiet_end: string | null;
  alert_quiet_dumps: boolean;
  /** Alert thin moves too (decision 0046); off by default. */
  alert_include_thin: boolean;
  /** Alert only moves confirmed on another venue (decision 0046); off by default. */
  alert_require_confirmation: boolean;
  locale: string | null;
  /** Sent only while the profile has none: the browser's zone. */
  time_zone?: string;
}

/** Storm control's rules, as the database's constraints name them (decision 0029). */
export type StormError = "step" | "cap" | "quietPair" | "quietSpan" | "timeZone";

const CONSTRAINT_ERRORS: [string, StormError][] = [
  ["profiles_alert_escalation_step_range", "step"],
  ["profiles_alert_daily_cap_range", "cap"],
  ["profiles_alert_quiet_hours_pair", "quietPair"],
  ["profiles_alert_quiet_hours_span", "quietSpan"],
  ["Unknown time zone", "timeZone"],
];

/** Which storm-control rule a refused save broke, or null for any other failure. */
export function stormErrorOf(error: unknown): StormError | null {
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message !== "string") return null;
  return CONSTRAINT_ERRORS.find(([needle]) => message.includes(needle))?.[1] ?? null;
}

/** The same rules checked before sending (the database checks them again). */
export function checkStormControl(o: {
  dailyCap: string;
  quietStart: string;
  quietEnd: string;
}): StormError | null {
  const cap = o.dailyCap.trim();
  if (cap !== "" && !(/^\d+$/.test(cap) && Number(cap) >= 1 && Number(cap) <= DAILY_CAP_MAX)) {
    return "cap";
  }
  if ((o.quietStart === "") !== (o.quietEnd === "")) return "quietPair";
  if (o.quietStart !== "" && o.quietStart === o.quietEnd) return "quietSpan";
  return null;
}

/** The browser's IANA zone, or undefined where it cannot tell. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

const rulesKey = ["alert-symbol-rules"] as const;
const recentKey = ["alerts-sent", "own"] as const;

export function useSymbolRules(enabled: boolean) {
  return useQuery({
    queryKey: rulesKey,
    enabled,
    queryFn: async (): Promise<SymbolRule[]> => {
      const { data, error } = await supabase.from("alert_symbol_rules").select("*").order("symbol");
      if (error) throw error;
      return data ?? [];
    },
  });
}

/**
 * The user's last 20 delivered messages (all channels), newest first: one row per message, a
 * digest led by its largest move with the count of the others (decision 0043).
 */
export function useRecentAlerts(userId: string) {
  return useQuery({
    queryKey: [...recentKey, userId],
    queryFn: async (): Promise<SentAlert[]> => {
      const { data, error } = await supabase
        .from("alerts_sent")
        .select(
          "id, symbol, exchange, pct, channel, window_minutes, created_at, symbols, symbol_count",
        )
        .eq("user_id", userId)
        .order("created_at", { ascending: false })
        .limit(20);
      if (error) throw error;
      return data ?? [];
    },
    refetchInterval: 60_000,
  });
}

export function useSaveDeliveryOptions(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (options: DeliveryOptions) => {
      const { data, error } = await supabase
        .from("profiles")
        .update(options)
        .eq("id", userId)
        .select("id");
      if (error) throw error;
      if (!data?.length) throw new Error("not saved");
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQueryKey }),
  });
}

export function useSaveSymbolThreshold(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ symbol, threshold }: { symbol: string; threshold: number }) => {
      const { error } = await supabase
        .from("alert_symbol_rules")
        .upsert(
          { user_id: userId, symbol, threshold, updated_at: new Date().toISOString() },
          { onConflict: "user_id,symbol" },
        );
      if (error) throw error;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rulesKey }),
  });
}

export function useDeleteSymbolRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (symbol: string) => {
      const { error } = await supabase.from("alert_symbol_rules").delete().eq("symbol", symbol);
      if (error) throw error;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rulesKey }),
  });
}

export function useMuteSymbol() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ symbol, minutes }: { symbol: string; minutes: number }) => {
      const { data, error } = await supabase.rpc("mute_alert_symbol", { symbol, minutes });
      if (error) throw error;
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rulesKey }),
  });
}

/** One-click unsubscribe from e-mail alerts; false when the link is unknown. */
export async function unsubscribeAlertEmail(token: string): Promise<boolean> {
  const { data, error } = await supabase.rpc("unsubscribe_alert_email", { token });
  if (error) throw error;
  return data === true;
}
