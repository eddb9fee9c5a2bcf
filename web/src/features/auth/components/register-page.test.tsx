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

const submit = () => fireEvent.click(screen.getByRole("button", { name: "Sign Up" }));

async function open(path = "/auth/register") {
  const rendered = renderRoute(path);
  await screen.findByRole("heading", { level: 1, name: "Create Account" });
  return rendered;
}

describe("RegisterPage", () => {
  it("shows the heading, subtitle and a link to login", async () => {
    await open();
    expect(screen.getByText("Start tracking crypto gainers in real-time")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign in now" })).toHaveAttribute(
      "href",
      "/auth/login",
    );
  });

  it("validates the e-mail and a password of at least 8 characters", async () => {
    await open();

    fill("trader@", "1234567");
    submit();

    expect(await screen.findByText("Invalid email address")).toBeInTheDocument();
    expect(screen.getByText("Password must be at least 8 characters")).toBeInTheDocument();
    expect(supabaseMock.client.auth.signUp).not.toHaveBeenCalled();
  });

  it("shows the validation messages in German", async () => {
    await i18n.changeLanguage("de");
    renderRoute("/auth/register");
    await screen.findByRole("heading", { name: "Konto erstellen" });

    fireEvent.click(screen.getByRole("button", { name: "Registrieren" }));

    expect(await screen.findByText("Ungültige E-Mail-Adresse")).toBeInTheDocument();
    expect(
      screen.getByText("Das Passwort muss mindestens 8 Zeichen lang sein"),
    ).toBeInTheDocument();
  });

  it("reads 'Creating account...' and is disabled while pending", async () => {
    let finish: (value: unknown) => void = () => {};
    supabaseMock.client.auth.signUp.mockImplementationOnce(
      () => new Promise((resolve) => (finish = resolve)) as never,
    );
    await open();

    fill("new@example.com", "long-enough");
    submit();

    expect(await screen.findByRole("button", { name: "Creating account..." })).toBeDisabled();
    finish({ data: { user: null, session: null }, error: null });
  });

  it("creates the account, toasts and sends the user to the login page", async () => {
    const { router } = await open("/auth/register?redirect=%2Fpricing");

    fill("new@example.com", "long-enough");
    submit();

    expect(await screen.findByText("Registration successful")).toBeInTheDocument();
    expect(screen.getByText("Account created! You can now sign in.")).toBeInTheDocument();
    expect(supabaseMock.client.auth.signUp).toHaveBeenCalledWith(
      expect.objectContaining({ email: "new@example.com", password: "long-enough" }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe("/auth/login"));
    expect(new URLSearchParams(router.state.location.search).get("redirect")).toBe("/pricing");
  });

  it("shows the server's message when registration fails", async () => {
    supabaseMock.failAuth("signUp", new AuthApiError("User already registered", 422, "x"));
    const { router } = await open();

    fill("taken@example.com", "long-enough");
    submit();

    expect(await screen.findByText("User already registered")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/auth/register");
  });

  it("falls back to 'Email already taken or invalid'", async () => {
    supabaseMock.failAuth("signUp", new TypeError("Failed to fetch"));
    await open();

    fill("taken@example.com", "long-enough");
    submit();

    expect(await screen.findByText("Email already taken or invalid")).toBeInTheDocument();
  });
});
