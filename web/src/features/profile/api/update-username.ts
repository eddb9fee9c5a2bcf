import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { profileQueryOptions } from "@/lib/profile-query";
import { supabase } from "@/lib/supabase";
import { i18n } from "@/i18n/i18n";
import { assertSaved, toRequestError } from "@/lib/session-expired";

/** The database's `profiles_username_format` check: `^[A-Za-z0-9_]{3,30}$`. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_]+$/;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;

/** Messages are keys of the `profile` namespace (the form shows them translated). */
export const usernameSchema = z
  .string()
  .min(USERNAME_MIN, "profile:username.tooShort")
  .max(USERNAME_MAX, "profile:username.tooLong")
  .regex(USERNAME_PATTERN, "profile:username.invalid");

export const updateUsernameInputSchema = z.object({ username: usernameSchema });
export type UpdateUsernameInput = z.infer<typeof updateUsernameInputSchema>;

/** SQLSTATE of a unique violation: the name was taken between the check and the save. */
export const UNIQUE_VIOLATION = "23505";

export async function updateUsername(userId: string, input: UpdateUsernameInput): Promise<void> {
  const { data, error, status } = await supabase
    .from("profiles")
    .update({ username: input.username })
    .eq("id", userId)
    .select("id");
  if (error) throw toRequestError(error, status);
  assertSaved(data, i18n.t("common:error.notSaved"));
}

export function useUpdateUsername(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateUsernameInput) => updateUsername(userId, input),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: profileQueryOptions(userId).queryKey }),
  });
}
