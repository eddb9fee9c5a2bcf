import { useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { LOGIN_PATH } from "@/lib/redirect";
import { supabase } from "@/lib/supabase";

/** Passwords have at least this many characters (spec section 9). */
export const PASSWORD_MIN_LENGTH = 8;

/** Register form (spec section 5). Messages are keys of the `validation` namespace. */
export const signUpInputSchema = z.object({
  email: z
    .string()
    .trim()
    .pipe(z.email({ error: "emailInvalid" })),
  password: z.string().min(PASSWORD_MIN_LENGTH, { error: "passwordMin" }),
});

export type SignUpInput = z.input<typeof signUpInputSchema>;

export async function signUp(input: z.output<typeof signUpInputSchema>) {
  const { data, error } = await supabase.auth.signUp({
    ...input,
    // A confirmation mail (when the project sends one) leads back to the login page.
    options: { emailRedirectTo: `${window.location.origin}${LOGIN_PATH}` },
  });
  if (error) throw error;
  return data;
}

/** Registration does not sign in (the user is sent to the login page), so nothing to invalidate. */
export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
