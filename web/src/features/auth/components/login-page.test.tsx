import { AuthApiError } from "@supabase/supabase-js";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { i18n } from "@/i18n/i18n";
import { renderRoute } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";

function fill(email: string, password: string) {
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: email } });
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: password } });
}

const submit = () => fireEvent.click(screen.getByRole("button", { name: "Sign In" }));

describe("LoginPage", () => {
  it("shows the heading, subtitle and a link to register", async () => {
    renderRoute("/auth/login");

    expect(await screen.findByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();
    expect(screen.getByText("Sign in to continue")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign up now" })).toHaveAttribute(
      "href",
      "/auth/register",
    );
  });

  it("validates the e-mail and requires a password", async () => {
    renderRoute("/auth/login");
    await screen.findByRole("heading", { name: "Welcome back" });

    fill("not-an-email", "");
    submit();

    expect(await screen.findByText("Invalid email address")).toBeInTheDocument();
    expect(screen.getByText("Password is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
    expect(supabaseMock.client.auth.signInWithPassword).not.toHaveBeenCalled();
  });

  it("shows the validation messages in the chosen language", async () => {
    await i18n.changeLanguage("fr");
    renderRoute("/auth/login");
    await screen.findByRole("heading", { name: "Bon retour parmi nous" });

    fireEvent.click(screen.getByRole("button", { name: "Se connecter" }));

    expect(await screen.findByText("Adresse e-mail invalide")).toBeInTheDocument();
    expect(screen.getByText("Le mot de passe est obligatoire")).toBeInTheDocument();
  });

  it("reads 'Signing in...' and is disabled while pending", async () => {
    let finish: (value: unknown) => void = () => {};
    supabaseMock.client.auth.signInWithPassword.mockImplementationOnce(
      () => new Promise((resolve) => (finish = resolve)) as never,
    );
    renderRoute("/auth/login");
    await screen.findByRole("heading", { name: "Welcome back" });

    fill("trader@example.com", "secret");
    submit();

    const button = await screen.findByRole("button", { name: "Signing in..." });
    expect(button).toBeDisabled();
    finish({ data: { user: null, session: null }, error: null });
  });

  it("signs in, toasts and goes to the dashboard", async () => {
    const { router } = renderRoute("/auth/login");
    await screen.findByRole("heading", { name: "Welcome back" });

    fill(" trader@example.com ", "secret");
    submit();

    expect(await screen.findByText("Successfully logged in")).toBeInTheDocument();
    expect(
      screen.getByText("Welcome back! You have been successfully logged in."),
    ).toBeInTheDocument();
    expect(supabaseMock.client.auth.signInWithPassword).toHaveBeenCalledWith({
      email: "trader@example.com",
      password: "secret",
    });
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    // The header now knows the user (session query invalidated).
    expect(await screen.findByText("trader@example.com")).toBeInTheDocument();
  });

  it("returns to the requested same-origin page", async () => {
    const { router } = renderRoute("/auth/login?redirect=%2Fsupport%2Fticket%2F7%3Ftab%3Dx");
    await screen.findByRole("heading", { name: "Welcome back" });
    expect(screen.getByRole("link", { name: "Sign up now" })).toHaveAttribute(
      "href",
      "/auth/register?redirect=/support/ticket/7%3Ftab%3Dx",
    );

    fill("trader@example.com", "secret");
    submit();

    await waitFor(() => expect(router.state.location.pathname).toBe("/support/ticket/7"));
    expect(router.state.location.search).toBe("?tab=x");
  });

  it.each(["https://evil.example/phish", "//evil.example", "/\\evil.example"])(
    "refuses to redirect to %s and goes to the dashboard",
    async (target) => {
      const { router } = renderRoute(`/auth/login?redirect=${encodeURIComponent(target)}`);
      await screen.findByRole("heading", { name: "Welcome back" });

      fill("trader@example.com", "secret");
      submit();

      await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    },
  );

  it("shows the server's message when the login fails", async () => {
    supabaseMock.failAuth("signIn", new AuthApiError("Invalid login credentials", 400, "x"));
    const { router } = renderRoute("/auth/login");
    await screen.findByRole("heading", { name: "Welcome back" });

    fill("trader@example.com", "wrong");
    submit();

    expect(await screen.findByText("Invalid login credentials")).toBeInTheDocument();
    expect(screen.getByText("Login failed")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/auth/login");
    expect(screen.getByRole("button", { name: "Sign In" })).toBeEnabled();
  });

  it("falls back to 'Invalid email or password' without a server message", async () => {
    supabaseMock.failAuth("signIn", new TypeError("Failed to fetch"));
    renderRoute("/auth/login");
    await screen.findByRole("heading", { name: "Welcome back" });

    fill("trader@example.com", "wrong");
    submit();

    expect(await screen.findByText("Invalid email or password")).toBeInTheDocument();
  });

  it("copies browser-autofilled values into the form after 100 ms", async () => {
    renderRoute("/auth/login");
    await screen.findByRole("heading", { name: "Welcome back" });

    // Autofill sets the DOM value without an input event.
    const email = screen.getByLabelText<HTMLInputElement>("Email");
    const password = screen.getByLabelText<HTMLInputElement>("Password");
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(
      email,
      "saved@example.com",
    );
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(
      password,
      "saved-secret",
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    submit();

    await waitFor(() =>
      expect(supabaseMock.client.auth.signInWithPassword).toHaveBeenCalledWith({
        email: "saved@example.com",
        password: "saved-secret",
      }),
    );
  });
});
