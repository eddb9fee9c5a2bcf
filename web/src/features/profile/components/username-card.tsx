import { zodResolver } from "@hookform/resolvers/zod";
import { CheckCircle2Icon, XCircleIcon } from "lucide-react";
import { useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useSessionExpiredHandler } from "@/lib/session-expired";
import { cn } from "@/lib/utils";
import {
  UNIQUE_VIOLATION,
  updateUsernameInputSchema,
  useUpdateUsername,
  type UpdateUsernameInput,
} from "../api/update-username";
import {
  useUsernameAvailability,
  type UsernameAvailability,
} from "../hooks/use-username-availability";

type UsernameCardProps = {
  userId: string;
  currentName: string | null;
};

/** Username with a live availability check; saved on the user's own profile row. */
export function UsernameCard({ userId, currentName }: UsernameCardProps) {
  const { t } = useTranslation("profile");
  const form = useForm<UpdateUsernameInput>({
    resolver: zodResolver(updateUsernameInputSchema),
    defaultValues: { username: currentName ?? "" },
    mode: "onChange",
  });
  const candidate = useWatch({ control: form.control, name: "username" });
  const availability = useUsernameAvailability(candidate, currentName);
  const update = useUpdateUsername(userId);
  const handleSessionExpired = useSessionExpiredHandler();

  const onSubmit = form.handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: () => {
        form.reset(values);
        toast.success(t("username.updated"));
      },
      onError: (error) => {
        if (handleSessionExpired(error)) return;
        const code = (error as { code?: unknown }).code;
        toast.error(t("username.updateFailed"), {
          description: code === UNIQUE_VIOLATION ? t("username.taken") : error.message,
        });
      },
    }),
  );

  const unchanged = candidate === (currentName ?? "");
  const blocked = availability === "checking" || availability === "taken";
  const saving = update.isPending;
  const invalid = !!form.formState.errors.username;

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("username.title")}</CardTitle>
      </CardHeader>
      <CardContent>
        <Form {...form}>
          <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
            <FormField
              control={form.control}
              name="username"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t("username.label")}</FormLabel>
                  <FormControl>
                    <Input
                      {...field}
                      autoComplete="username"
                      autoCapitalize="none"
                      spellCheck={false}
                      maxLength={64}
                      placeholder={t("username.placeholder")}
                    />
                  </FormControl>
                  <FormDescription>{t("username.hint")}</FormDescription>
                  <FormMessage />
                  <AvailabilityNote availability={invalid ? "unknown" : availability} />
                </FormItem>
              )}
            />
            <Button
              type="submit"
              className="self-start"
              disabled={saving || unchanged || blocked || invalid}
            >
              {saving && <Spinner />}
              {saving ? t("username.saving") : t("username.save")}
            </Button>
          </form>
        </Form>
      </CardContent>
    </Card>
  );
}

/** One polite live region, so screen readers hear the result of each check. */
function AvailabilityNote({ availability }: { availability: UsernameAvailability }) {
  const { t } = useTranslation("profile");
  return (
    <p
      role="status"
      className={cn(
        "flex min-h-5 items-center gap-2 text-sm",
        availability === "checking" && "text-muted-foreground",
        availability === "available" && "text-success",
        availability === "taken" && "text-destructive",
      )}
    >
      {availability === "checking" && (
        <>
          <Spinner />
          {t("username.checking")}
        </>
      )}
      {availability === "available" && (
        <>
          <CheckCircle2Icon aria-hidden="true" className="size-4" />
          {t("username.available")}
        </>
      )}
      {availability === "taken" && (
        <>
          <XCircleIcon aria-hidden="true" className="size-4" />
          {t("username.taken")}
        </>
      )}
    </p>
  );
}
