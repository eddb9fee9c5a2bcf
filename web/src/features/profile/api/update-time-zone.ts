import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { i18n } from "@/i18n/i18n";
import { profileQueryOptions } from "@/lib/profile-query";
import { assertSaved, toRequestError } from "@/lib/session-expired";
import { supabase } from "@/lib/supabase";

/**
 * The profile's IANA time zone. The database's trigger (`profiles_check_time_zone`) is the judge:
 * it refuses a name PostgreSQL does not know with SQLSTATE 22023 "Unknown time zone: …".
 */
export const updateTimeZoneInputSchema = z.object({
  timeZone: z
    .string()
    .trim()
    .min(1, "profile:timeZone.required")
    .max(64, "profile:timeZone.unknown"),
});
export type UpdateTimeZoneInput = z.infer<typeof updateTimeZoneInputSchema>;

/** True when the error is the database refusing the zone name. */
export function isUnknownTimeZoneError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === "22023" && typeof message === "string" && message.startsWith("Unknown time zone");
}

export async function updateTimeZone(userId: string, input: UpdateTimeZoneInput): Promise<void> {
  const { timeZone } = updateTimeZoneInputSchema.parse(input);
  const { data, error, status } = await supabase
    .from("profiles")
    .update({ time_zone: timeZone })
    .eq("id", userId)
    .select("id");
  if (error) throw toRequestError(error, status);
  assertSaved(data, i18n.t("common:error.notSaved"));
}

/** Saves the zone and waits for the profile to be re-read, so every date follows it. */
export function useUpdateTimeZone(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateTimeZoneInput) => updateTimeZone(userId, input),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: profileQueryOptions(userId).queryKey }),
  });
}
