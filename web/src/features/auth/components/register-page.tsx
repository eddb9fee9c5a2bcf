import { zodResolver } from "@hookform/resolvers/zod";
import { useRef } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { Spinner } from "@/components/ui/spinner";
import { loginPath, safeRedirectPath } from "@/lib/redirect";
import { signUpInputSchema, useSignUp, type SignUpInput } from "../api/sign-up";
import { useAutofillSync } from "../hooks/use-autofill-sync";
import { authErrorMessage } from "../utils/auth-error-message";
import { AuthCard } from "./auth-card";
import { CredentialsFields } from "./credentials-fields";

const AUTOFILLED_FIELDS = ["email", "password"] as const;

/** /auth/register: on success the user signs in on /auth/login (a `?redirect=` is kept). */
export function RegisterPage() {
  const { t } = useTranslation("auth");
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const redirect = safeRedirectPath(searchParams.get("redirect"));
  const signUp = useSignUp();
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm<SignUpInput>({
    resolver: zodResolver(signUpInputSchema),
    defaultValues: { email: "", password: "" },
  });
  useAutofillSync(formRef, form, AUTOFILLED_FIELDS);

  const onSubmit = form.handleSubmit((values) =>
    signUp.mutate(values, {
      onSuccess: () => {
        toast.success(t("register.successTitle"), {
          description: t("register.successDescription"),
        });
        void navigate(loginPath(redirect));
      },
      onError: (error) => {
        toast.error(t("register.errorTitle"), {
          description: authErrorMessage(error) ?? t("register.errorFallback"),
        });
      },
    }),
  );

  return (
    <AuthCard
      title={t("register.title")}
      subtitle={t("register.subtitle")}
      footer={
        <p>
          {t("register.haveAccount")}{" "}
          <Link to={loginPath(redirect)} className="font-medium text-primary hover:underline">
            {t("register.signInLink")}
          </Link>
        </p>
      }
    >
      <Form {...form}>
        <form ref={formRef} noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <CredentialsFields
            control={form.control}
            passwordAutoComplete="new-password"
            passwordHint={t("fields.passwordHint")}
          />
          <Button type="submit" className="mt-2 w-full" disabled={signUp.isPending}>
            {signUp.isPending && <Spinner />}
            {signUp.isPending ? t("register.pending") : t("register.submit")}
          </Button>
        </form>
      </Form>
    </AuthCard>
  );
}
