import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { supabase } from "@/lib/supabase";
import { toRequestError } from "@/lib/session-expired";
import { currentUserId } from "./current-user-id";
import { groupKeys } from "./queries";

/** Spec section 5: name 3-50 non-blank after trim, description up to 200, public by default. */
export const createGroupInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(3, "community:groups.create.nameTooShort")
    .max(50, "community:groups.create.nameTooLong"),
  description: z.string().trim().max(200, "community:groups.create.descriptionTooLong"),
  isPublic: z.boolean(),
});
export type CreateGroupInput = z.infer<typeof createGroupInputSchema>;

export async function createGroup(input: CreateGroupInput): Promise<{ id: string }> {
  const parsed = createGroupInputSchema.parse(input);
  const userId = await currentUserId();
  const { data, error, status } = await supabase
    .from("groups")
    .insert({
      name: parsed.name,
      description: parsed.description === "" ? null : parsed.description,
      is_public: parsed.isPublic,
      created_by: userId,
    })
    .select("id")
    .single();
  if (error) throw toRequestError(error, status);
  return data;
}

export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.list() }),
  });
}
