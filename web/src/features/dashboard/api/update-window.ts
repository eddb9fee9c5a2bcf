import { WINDOW_MINUTES } from "@domain/plans";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { i18n } from "@/i18n/i18n";
import { profileQueryKey } from "@/lib/profile-query";
import { assertSaved, toRequestError } from "@/lib/session-expired";
import { supabase } from "@/lib/supabase";

/**
 * The dashboard's window selector saves `profiles.selected_window_minutes`. The database refuses
 * a window the plan does not offer (23514 with the allowed windows in the hint, decision 0005).
 */
export const updateWindowSchema = z.object({
  userId: z.string().min(1),
  windowMinutes: z
    .number()
    .int()
    .refine((minutes) => (WINDOW_MINUTES as readonly number[]).includes(minutes)),
});

export type UpdateWindowInput = z.infer<typeof updateWindowSchema>;

export async function updateWindow(input: UpdateWindowInput): Promise<void> {
  const { userId, windowMinutes } = updateWindowSchema.parse(input);
  const { data, error, status } = await supabase
    .from("profiles")
    .update({ selected_window_minutes: windowMinutes })
    .eq("id", userId)
    .select("id");
  if (error) throw toRequestError(error, status);
  assertSaved(data, i18n.t("common:error.notSaved"));
}

/**
 * Saves the window, then waits for the profile to be refetched so the feed switches to it. A
 * failure refetches the profile too: the selector falls back to the stored window.
 */
export function useUpdateWindow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWindow,
    onSettled: () => queryClient.invalidateQueries({ queryKey: profileQueryKey }),
  });
}
