import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { profileQueryKey } from "@/lib/profile-query";
import { sessionQueries } from "@/lib/session-query";
import { supabase } from "@/lib/supabase";

/** Login form (spec section 5). Messages are keys of the `validation` namespace. */
export const signInInputSchema = z.object({
  email: z
    .string()
    .trim()
    .pipe(z.email({ error: "emailInvalid" })),
  password: z.string().min(1, { error: "passwordRequired" }),
});

export type SignInInput = z.input<typeof signInInputSchema>;

export async function signIn(input: z.output<typeof signInInputSchema>) {
  const { data, error } = await supabase.auth.signInWithPassword(input);
  if (error) throw error;
  return data;
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sessionQueries.all }),
        queryClient.invalidateQueries({ queryKey: profileQueryKey }),
      ]),
  });
}
