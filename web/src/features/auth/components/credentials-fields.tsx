import type { Control } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";

type Credentials = { email: string; password: string };

type CredentialsFieldsProps = {
  control: Control<Credentials>;
  /** "current-password" on login, "new-password" on register (password managers read it). */
  passwordAutoComplete: "current-password" | "new-password";
  passwordHint?: string;
};

/** The e-mail and password fields shared by the login and register forms. */
export function CredentialsFields({
  control,
  passwordAutoComplete,
  passwordHint,
}: CredentialsFieldsProps) {
  const { t } = useTranslation("auth");

  return (
    <>
      <FormField
        control={control}
        name="email"
        render={({ field }) => (
          <FormItem>
            <FormLabel>{t("fields.email")}</FormLabel>
            <FormControl>
              <Input
                type="email"
                autoComplete="email"
                inputMode="email"
                placeholder={t("fields.emailPlaceholder")}
                {...field}
              />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
      <FormField
        control={control}
        name="password"
        render={({ field }) => (
          <FormItem>
            <FormLabel>{t("fields.password")}</FormLabel>
            <FormControl>
              <Input
                type="password"
                autoComplete={passwordAutoComplete}
                placeholder={passwordHint}
                {...field}
              />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
    </>
  );
}
