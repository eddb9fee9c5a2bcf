import { zodResolver } from "@hookform/resolvers/zod";
import { useRef } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { Spinner } from "@/components/ui/spinner";
import { DEFAULT_AFTER_LOGIN, safeRedirectPath } from "@/lib/redirect";
import { signInInputSchema, useSignIn, type SignInInput } from "../api/sign-in";
import { useAutofillSync } from "../hooks/use-autofill-sync";
import { authErrorMessage } from "../utils/auth-error-message";
import { AuthCard } from "./auth-card";
import { CredentialsFields } from "./credentials-fields";

const AUTOFILLED_FIELDS = ["email", "password"] as const;

/** /auth/login: returns to `?redirect=` (same-origin paths only), else to the dashboard. */
export function LoginPage() {
  const { t } = useTranslation("auth");
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const redirect = safeRedirectPath(searchParams.get("redirect"));
  const signIn = useSignIn();
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm<SignInInput>({
    resolver: zodResolver(signInInputSchema),
    defaultValues: { email: "", password: "" },
  });
  useAutofillSync(formRef, form, AUTOFILLED_FIELDS);

  const onSubmit = form.handleSubmit((values) =>
    signIn.mutate(values, {
      onSuccess: () => {
        toast.success(t("login.successTitle"), { description: t("login.successDescription") });
        void navigate(redirect ?? DEFAULT_AFTER_LOGIN, { replace: true });
      },
      onError: (error) => {
        toast.error(t("login.errorTitle"), {
          description: authErrorMessage(error) ?? t("login.errorFallback"),
        });
      },
    }),
  );

  const registerTo = redirect
    ? `/auth/register?redirect=${encodeURIComponent(redirect).replace(/%2F/g, "/")}`
    : "/auth/register";

  return (
    <AuthCard
      title={t("login.title")}
      subtitle={t("login.subtitle")}
      footer={
        <p>
          {t("login.noAccount")}{" "}
          <Link to={registerTo} className="font-medium text-primary hover:underline">
            {t("login.signUpLink")}
          </Link>
        </p>
      }
    >
      <Form {...form}>
        <form ref={formRef} noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <CredentialsFields control={form.control} passwordAutoComplete="current-password" />
          <Button type="submit" className="mt-2 w-full" disabled={signIn.isPending}>
            {signIn.isPending && <Spinner />}
            {signIn.isPending ? t("login.pending") : t("login.submit")}
          </Button>
        </form>
      </Form>
    </AuthCard>
  );
}
