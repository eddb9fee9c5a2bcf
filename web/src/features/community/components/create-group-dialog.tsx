import { zodResolver } from "@hookform/resolvers/zod";
import { Plus } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
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
import { Textarea } from "@/components/ui/textarea";
import { useSessionExpiredHandler } from "@/lib/session-expired";
import { type CreateGroupInput, createGroupInputSchema, useCreateGroup } from "../api/create-group";
import { writeLimitMessage } from "@/lib/write-limit";

const EMPTY: CreateGroupInput = { name: "", description: "", isPublic: true };

/** "Create Group": name 3-50, description up to 200, public by default (spec section 5). */
export function CreateGroupDialog() {
  const { t } = useTranslation("community");
  const [open, setOpen] = useState(false);
  const create = useCreateGroup();
  const handleSessionExpired = useSessionExpiredHandler();
  const form = useForm<CreateGroupInput>({
    resolver: zodResolver(createGroupInputSchema),
    defaultValues: EMPTY,
  });

  const onSubmit = form.handleSubmit((values) =>
    create.mutate(values, {
      onSuccess: () => {
        toast.success(t("groups.created"));
        setOpen(false);
        form.reset(EMPTY);
      },
      onError: (error) => {
        if (handleSessionExpired(error)) return;
        toast.error(t("groups.createFailed"), {
          description: writeLimitMessage(error) ?? error.message,
        });
      },
    }),
  );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) form.reset(EMPTY);
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden="true" />
          {t("groups.create.open")}
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t("groups.create.cancel")}>
        <DialogHeader>
          <DialogTitle>{t("groups.create.title")}</DialogTitle>
          <DialogDescription>{t("groups.create.description")}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
            <FormField
              control={form.control}
              name="name"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t("groups.create.name")}</FormLabel>
                  <FormControl>
                    <Input
                      {...field}
                      maxLength={50}
                      placeholder={t("groups.create.namePlaceholder")}
                    />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="description"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t("groups.create.descriptionLabel")}</FormLabel>
                  <FormControl>
                    <Textarea
                      {...field}
                      maxLength={200}
                      rows={3}
                      placeholder={t("groups.create.descriptionPlaceholder")}
                    />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="isPublic"
              render={({ field }) => (
                <FormItem className="flex flex-row items-start gap-3">
                  <FormControl>
                    <Checkbox
                      checked={field.value}
                      onChange={(event) => field.onChange(event.target.checked)}
                    />
                  </FormControl>
                  <div className="flex flex-col gap-1">
                    <FormLabel>{t("groups.create.isPublic")}</FormLabel>
                    <FormDescription>{t("groups.create.isPublicHint")}</FormDescription>
                  </div>
                </FormItem>
              )}
            />
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                {t("groups.create.cancel")}
              </Button>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending && <Spinner />}
                {create.isPending ? t("groups.create.creating") : t("groups.create.submit")}
              </Button>
            </DialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
