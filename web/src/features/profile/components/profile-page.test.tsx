import { FunctionsHttpError } from "@supabase/supabase-js";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { createMemoryRouter, RouterProvider, useLocation } from "react-router-dom";
import { toast } from "sonner";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Toaster } from "@/components/ui/sonner";
import { i18n } from "@/i18n/i18n";
import type { Profile } from "@/lib/profile-query";
import { createTestQueryClient } from "@/testing/render";
import { supabaseMock, TEST_USER_ID, testProfile } from "@/testing/supabase-mock";
import { ProfilePage } from "./profile-page";

const assignLocation = vi.hoisted(() => vi.fn());
vi.mock("@/lib/browser-location", () => ({ assignLocation }));

const USER_ID = TEST_USER_ID;
const MB = 1024 * 1024;

/** A pro subscriber named "ada" unless a test says otherwise. */
function profileRow(overrides: Partial<Profile> = {}): Profile {
  return testProfile({
    email: "ada@example.com",
    username: "ada",
    plan: "pro",
    subscription_active: true,
    selected_window_minutes: 15,
    ...overrides,
  });
}

function LoginProbe() {
  const location = useLocation();
  return <p>Login page {location.search}</p>;
}

/** Signs in, serves the profile row and renders /profile with a toaster. */
function renderProfile(profile: Profile | null = profileRow()) {
  supabaseMock.signIn("ada@example.com");
  supabaseMock.setTable("profiles", { data: profile, error: null });
  const router = createMemoryRouter(
    [
      { path: "/profile", element: <ProfilePage /> },
      { path: "/auth/login", element: <LoginProbe /> },
      { path: "/pricing", element: <p>Pricing page</p> },
    ],
    { initialEntries: ["/profile"] },
  );
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return router;
}

function usernameInput() {
  return screen.getByRole("textbox", { name: "Username" });
}

function typeUsername(value: string) {
  fireEvent.change(usernameInput(), { target: { value } });
}

function saveButton() {
  return screen.getByRole("button", { name: "Save username" });
}

function chooseFile(file: File) {
  fireEvent.change(screen.getByLabelText("Choose picture", { selector: "input" }), {
    target: { files: [file] },
  });
}

function image(name: string, type: string, size = 1000) {
  const file = new File(["x"], name, { type });
  Object.defineProperty(file, "size", { value: size });
  return file;
}

function httpError(body: string, status: number) {
  return { data: null, error: new FunctionsHttpError(new Response(body, { status })) };
}

beforeEach(() => {
  Object.defineProperty(URL, "createObjectURL", {
    configurable: true,
    writable: true,
    value: vi.fn(() => "blob:preview"),
  });
  Object.defineProperty(URL, "revokeObjectURL", {
    configurable: true,
    writable: true,
    value: vi.fn(),
  });
  supabaseMock.setRpc("username_available", (args) => ({
    data: (args as { candidate: string }).candidate.toLowerCase() !== "taken_name",
    error: null,
  }));
});

afterEach(() => {
  vi.useRealTimers();
  // sonner replays active toasts to a new Toaster: start each test without any.
  toast.dismiss();
});

describe("ProfilePage: access", () => {
  it("sends a visitor without a session to the login page", async () => {
    supabaseMock.setTable("profiles", { data: null, error: null });
    const router = createMemoryRouter(
      [
        { path: "/profile", element: <ProfilePage /> },
        { path: "/auth/login", element: <LoginProbe /> },
      ],
      { initialEntries: ["/profile"] },
    );
    render(
      <QueryClientProvider client={createTestQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText(/Login page/)).toBeInTheDocument();
  });

  it("sends the user to the login page when no profile is returned", async () => {
    const router = renderProfile(null);
    expect(await screen.findByText(/Login page/)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/auth/login");
  });
});

describe("ProfilePage: account details", () => {
  it("shows e-mail, plan and an active subscription with the billing portal", async () => {
    renderProfile(profileRow({ plan: "enterprise" }));
    expect(await screen.findByRole("heading", { name: "Profile", level: 1 })).toBeInTheDocument();
    expect(screen.getByText("ada@example.com")).toBeInTheDocument();
    expect(screen.getByText("Enterprise")).toBeInTheDocument();
    expect(screen.getByText("Active")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Manage subscription" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Upgrade Subscription" })).not.toBeInTheDocument();
  });

  it("offers the upgrade to /pricing when the subscription is not active", async () => {
    renderProfile(profileRow({ plan: "basic", subscription_active: false }));
    const upgrade = await screen.findByRole("link", { name: "Upgrade Subscription" });
    expect(upgrade).toHaveAttribute("href", "/pricing");
    expect(screen.getByText("Inactive")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Manage subscription" })).not.toBeInTheDocument();
    fireEvent.click(upgrade);
    expect(await screen.findByText("Pricing page")).toBeInTheDocument();
  });

  it("shows the upgrade for the free state too", async () => {
    renderProfile(profileRow({ plan: "none", subscription_active: true }));
    expect(await screen.findByRole("link", { name: "Upgrade Subscription" })).toBeInTheDocument();
    expect(screen.getByText("None")).toBeInTheDocument();
  });

  it("opens the billing portal the function returns", async () => {
    supabaseMock.setFunction("billing-portal", {
      data: { url: "https://billing.stripe.com/p/session_123" },
      error: null,
    });
    renderProfile();
    fireEvent.click(await screen.findByRole("button", { name: "Manage subscription" }));
    await vi.waitFor(() =>
      expect(assignLocation).toHaveBeenCalledWith("https://billing.stripe.com/p/session_123"),
    );
    expect(supabaseMock.client.functions.invoke).toHaveBeenCalledWith("billing-portal", undefined);
  });

  it("shows the server's reason when the billing portal cannot be opened", async () => {
    supabaseMock.setFunction(
      "billing-portal",
      httpError(JSON.stringify({ message: "No subscription to manage yet." }), 404),
    );
    renderProfile();
    fireEvent.click(await screen.findByRole("button", { name: "Manage subscription" }));
    expect(await screen.findByText("Could not open the billing portal")).toBeInTheDocument();
    expect(screen.getByText("No subscription to manage yet.")).toBeInTheDocument();
    expect(assignLocation).not.toHaveBeenCalled();
  });
});

describe("ProfilePage: username", () => {
  it("starts from the saved name with nothing to save", async () => {
    renderProfile();
    expect(await screen.findByRole("textbox", { name: "Username" })).toHaveValue("ada");
    expect(saveButton()).toBeDisabled();
  });

  it.each([
    ["ab", "Username must be at least 3 characters"],
    ["a".repeat(31), "Username must be at most 30 characters"],
    ["bad name!", "Username can only contain letters, numbers and underscores"],
    ["über", "Username can only contain letters, numbers and underscores"],
  ])("refuses %j: %s", async (value, message) => {
    renderProfile();
    await screen.findByRole("textbox", { name: "Username" });
    typeUsername(value);
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(usernameInput()).toHaveAttribute("aria-invalid", "true");
    expect(saveButton()).toBeDisabled();
  });

  it("checks availability only after a 500 ms pause", async () => {
    renderProfile();
    await screen.findByRole("textbox", { name: "Username" });
    vi.useFakeTimers();

    typeUsername("new_na");
    await act(() => vi.advanceTimersByTimeAsync(300));
    typeUsername("new_name");
    expect(screen.getByText("Checking availability...")).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(supabaseMock.client.rpc).not.toHaveBeenCalled();

    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(supabaseMock.client.rpc).toHaveBeenCalledOnce();
    expect(supabaseMock.client.rpc).toHaveBeenCalledWith("username_available", {
      candidate: "new_name",
    });
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(screen.getByText("Username is available")).toBeInTheDocument();
    expect(saveButton()).toBeEnabled();
  });

  it("does not check names shorter than 3 characters or the current name", async () => {
    renderProfile();
    await screen.findByRole("textbox", { name: "Username" });
    vi.useFakeTimers();

    typeUsername("ad");
    await act(() => vi.advanceTimersByTimeAsync(1000));
    typeUsername("ada");
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(supabaseMock.client.rpc).not.toHaveBeenCalled();
    expect(screen.queryByText("Checking availability...")).not.toBeInTheDocument();
    expect(screen.queryByText("Username is available")).not.toBeInTheDocument();
  });

  it("reports a taken name and keeps it from being saved", async () => {
    renderProfile();
    await screen.findByRole("textbox", { name: "Username" });
    typeUsername("Taken_Name");
    expect(await screen.findByText("Username is already taken")).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
  });

  it("leaves the state unknown when the check fails, and lets the save decide", async () => {
    supabaseMock.setRpc("username_available", {
      data: null,
      error: { message: "boom", code: "XX000" },
    });
    renderProfile();
    await screen.findByRole("textbox", { name: "Username" });
    typeUsername("new_name");
    await vi.waitFor(() => expect(saveButton()).toBeEnabled());
    expect(screen.queryByText("Username is available")).not.toBeInTheDocument();
    expect(screen.queryByText("Username is already taken")).not.toBeInTheDocument();
  });

  it("saves the name on the user's own row", async () => {
    renderProfile();
    await screen.findByRole("textbox", { name: "Username" });
    typeUsername("new_name");
    await screen.findByText("Username is available");
    fireEvent.click(saveButton());

    expect(await screen.findByText("Profile updated")).toBeInTheDocument();
    expect(supabaseMock.updates).toEqual([
      { table: "profiles", values: { username: "new_name" }, filters: [["id", USER_ID]] },
    ]);
  });

  it("says the name is taken when the save hits the unique index", async () => {
    supabaseMock.setTableUpdate("profiles", {
      data: null,
      error: { message: "duplicate key value", code: "23505" },
      status: 409,
    });
    renderProfile();
    await screen.findByRole("textbox", { name: "Username" });
    typeUsername("new_name");
    await screen.findByText("Username is available");
    fireEvent.click(saveButton());

    expect(await screen.findByText("Update failed")).toBeInTheDocument();
    expect(screen.getAllByText("Username is already taken").length).toBeGreaterThan(0);
  });

  it("reports a save that changed no row (row-level security refused it) as a failure", async () => {
    supabaseMock.setTableUpdate("profiles", { data: [], error: null, status: 200 });
    renderProfile();
    await screen.findByRole("textbox", { name: "Username" });
    typeUsername("new_name");
    await screen.findByText("Username is available");
    fireEvent.click(saveButton());

    expect(await screen.findByText("Update failed")).toBeInTheDocument();
    expect(
      screen.getByText("Nothing was saved: your account cannot be changed right now."),
    ).toBeInTheDocument();
    expect(screen.queryByText("Profile updated")).not.toBeInTheDocument();
  });

  it("shows the server's message when the save fails", async () => {
    supabaseMock.setTableUpdate("profiles", {
      data: null,
      error: { message: "permission denied for table profiles", code: "42501" },
      status: 403,
    });
    renderProfile();
    await screen.findByRole("textbox", { name: "Username" });
    typeUsername("new_name");
    await screen.findByText("Username is available");
    fireEvent.click(saveButton());

    expect(await screen.findByText("Update failed")).toBeInTheDocument();
    expect(screen.getByText("permission denied for table profiles")).toBeInTheDocument();
  });

  it("sends the user to log in again when the session has expired", async () => {
    supabaseMock.setTableUpdate("profiles", {
      data: null,
      error: { message: "JWT expired", code: "PGRST303" },
      status: 401,
    });
    const router = renderProfile();
    await screen.findByRole("textbox", { name: "Username" });
    typeUsername("new_name");
    await screen.findByText("Username is available");
    vi.useFakeTimers();
    fireEvent.click(saveButton());
    await act(() => vi.advanceTimersByTimeAsync(50));

    expect(screen.getByText("Session expired")).toBeInTheDocument();
    expect(screen.getByText("Please login again to save settings")).toBeInTheDocument();
    expect(screen.queryByText("Update failed")).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1900));
    expect(router.state.location.pathname).toBe("/profile");
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(router.state.location.pathname).toBe("/auth/login");
    expect(router.state.location.search).toBe("?redirect=/profile");
  });
});

describe("ProfilePage: avatar", () => {
  it("shows the initial when there is no picture, and the picture when there is one", async () => {
    renderProfile();
    expect(await screen.findByRole("img", { name: "Your profile picture" })).toHaveTextContent("a");
  });

  it("refuses a file that is not an image", async () => {
    renderProfile();
    await screen.findByRole("img", { name: "Your profile picture" });
    chooseFile(image("notes.pdf", "application/pdf"));

    expect(await screen.findByText("Invalid file type")).toBeInTheDocument();
    expect(
      screen.getByText("Please select an image (JPEG, PNG, GIF, or WebP)."),
    ).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Upload" })).not.toBeInTheDocument();
    expect(supabaseMock.client.functions.invoke).not.toHaveBeenCalled();
  });

  it("refuses an image over 5 MB", async () => {
    renderProfile();
    await screen.findByRole("img", { name: "Your profile picture" });
    chooseFile(image("big.png", "image/png", 5 * MB + 1));

    expect(await screen.findByText("File too large")).toBeInTheDocument();
    expect(screen.getByText("The image must be at most 5 MB.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Upload" })).not.toBeInTheDocument();
  });

  it("previews a chosen image and clears it on cancel", async () => {
    renderProfile(profileRow({ avatar_url: "https://cdn.example/old.png" }));
    expect(await screen.findByRole("img", { name: "Your profile picture" })).toHaveAttribute(
      "src",
      "https://cdn.example/old.png",
    );
    chooseFile(image("me.webp", "image/webp"));

    expect(screen.getByRole("img", { name: "Preview of the chosen picture" })).toHaveAttribute(
      "src",
      "blob:preview",
    );
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByRole("img", { name: "Your profile picture" })).toHaveAttribute(
      "src",
      "https://cdn.example/old.png",
    );
    expect(URL.revokeObjectURL).toHaveBeenCalledWith("blob:preview");
    expect(screen.getByRole("button", { name: "Choose picture" })).toBeInTheDocument();
  });

  it("uploads the image as the multipart field avatar", async () => {
    let resolveUpload: (value: { data: unknown; error: null }) => void = () => {};
    supabaseMock.client.functions.invoke.mockImplementationOnce(
      () => new Promise((resolve) => (resolveUpload = resolve)),
    );
    renderProfile();
    await screen.findByRole("img", { name: "Your profile picture" });
    const file = image("me.png", "image/png");
    chooseFile(file);
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));

    const uploading = await screen.findByRole("button", { name: "Uploading..." });
    expect(uploading).toBeDisabled();
    const [name, options] = supabaseMock.client.functions.invoke.mock.calls[0]!;
    expect(name).toBe("avatar");
    const body = (options as { body: FormData }).body;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get("avatar")).toBe(file);

    resolveUpload({ data: { avatarUrl: "https://cdn.example/new.png" }, error: null });
    expect(await screen.findByText("Avatar uploaded")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Your profile picture" })).toHaveAttribute(
      "src",
      "https://cdn.example/new.png",
    );
    expect(screen.queryByRole("button", { name: "Upload" })).not.toBeInTheDocument();
  });

  it.each([
    [
      "the error field",
      JSON.stringify({ error: "Unsupported image content" }),
      415,
      "Unsupported image content",
    ],
    ["the message field", JSON.stringify({ message: "Image too large" }), 413, "Image too large"],
    ["the response text", "Bad Gateway from upstream", 502, "Bad Gateway from upstream"],
    ["the status", "", 500, "Upload failed (500)"],
  ])("reports a failed upload with %s", async (_, body, status, description) => {
    supabaseMock.setFunction("avatar", httpError(body, status));
    renderProfile();
    await screen.findByRole("img", { name: "Your profile picture" });
    chooseFile(image("me.gif", "image/gif"));
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));

    const toast = (await screen.findByText(description)).closest("li")!;
    expect(within(toast).getByText("Upload failed")).toBeInTheDocument();
    // The choice stays, so the user can try again.
    expect(screen.getByRole("button", { name: "Upload" })).toBeEnabled();
  });
});

describe("ProfilePage: avatar refused by the server", () => {
  /** The `avatar` function's error body: a code and an English message. */
  const refusal = (error: string, message: string, status: number) =>
    httpError(JSON.stringify({ error, message }), status);

  it.each([
    [
      "file_too_large",
      "The image must be at most 5 MB (server).",
      413,
      "File too large",
      "The image must be at most 5 MB.",
    ],
    [
      "invalid_file_type",
      "Please select an image (server).",
      415,
      "Invalid file type",
      "Please select an image (JPEG, PNG, GIF, or WebP).",
    ],
    [
      "missing_file",
      "Choose an image to upload (field avatar).",
      400,
      "Upload failed",
      "The image did not arrive intact. Please choose it again and retry.",
    ],
    [
      "invalid_request",
      "Send the image as multipart/form-data.",
      400,
      "Upload failed",
      "The image did not arrive intact. Please choose it again and retry.",
    ],
  ])("translates %s", async (code, message, status, title, description) => {
    supabaseMock.setFunction("avatar", refusal(code, message, status));
    renderProfile();
    await screen.findByRole("img", { name: "Your profile picture" });
    chooseFile(image("me.png", "image/png"));
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));

    const toast = (await screen.findByText(description)).closest("li")!;
    expect(within(toast).getByText(title)).toBeInTheDocument();
    expect(toast).not.toHaveTextContent(message);
    // The choice stays, so the user can try again.
    expect(screen.getByRole("button", { name: "Upload" })).toBeEnabled();
  });

  it("keeps the server's message for an unknown code", async () => {
    supabaseMock.setFunction("avatar", refusal("storage_failed", "Storage is down.", 500));
    renderProfile();
    await screen.findByRole("img", { name: "Your profile picture" });
    chooseFile(image("me.png", "image/png"));
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));

    const toast = (await screen.findByText("Storage is down.")).closest("li")!;
    expect(within(toast).getByText("Upload failed")).toBeInTheDocument();
  });

  it.each([
    [
      "de",
      "Hochladen",
      "file_too_large",
      413,
      "Datei zu groß",
      "Das Bild darf höchstens 5 MB groß sein.",
    ],
    [
      "fr",
      "Téléverser",
      "invalid_file_type",
      415,
      "Type de fichier non valide",
      "Veuillez sélectionner une image (JPEG, PNG, GIF ou WebP).",
    ],
    [
      "es",
      "Subir",
      "missing_file",
      400,
      "Error al subir",
      "La imagen no llegó completa. Vuelve a elegirla e inténtalo de nuevo.",
    ],
  ])("speaks %s", async (language, upload, code, status, title, description) => {
    await i18n.changeLanguage(language);
    supabaseMock.setFunction("avatar", refusal(code, "English text", status));
    renderProfile();
    const input = await screen.findByLabelText(/./, { selector: "input[type=file]" });
    fireEvent.change(input, { target: { files: [image("me.png", "image/png")] } });
    fireEvent.click(screen.getByRole("button", { name: upload }));

    const toast = (await screen.findByText(description)).closest("li")!;
    expect(within(toast).getByText(title)).toBeInTheDocument();
    expect(toast).not.toHaveTextContent("English text");
  });
});

describe("ProfilePage: avatar with an expired session", () => {
  it("sends the user to log in again instead of reporting a failed upload", async () => {
    supabaseMock.setFunction(
      "avatar",
      httpError(JSON.stringify({ error: "unauthorized", message: "Log in first." }), 401),
    );
    const router = renderProfile();
    await screen.findByRole("img", { name: "Your profile picture" });
    chooseFile(image("me.png", "image/png"));
    vi.useFakeTimers();
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    await act(() => vi.advanceTimersByTimeAsync(50));

    expect(screen.getByText("Session expired")).toBeInTheDocument();
    expect(screen.queryByText("Upload failed")).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(router.state.location.pathname).toBe("/auth/login");
    expect(router.state.location.search).toBe("?redirect=/profile");
  });
});

describe("ProfilePage: languages", () => {
  it.each([
    [
      "de",
      "Profil",
      "Benutzername",
      "Der Benutzername darf nur Buchstaben, Ziffern und Unterstriche enthalten",
      "Abonnement upgraden",
    ],
    [
      "fr",
      "Profil",
      "Nom d'utilisateur",
      "Le nom d'utilisateur ne peut contenir que des lettres, des chiffres et des tirets bas",
      "Améliorer l'abonnement",
    ],
    [
      "es",
      "Perfil",
      "Nombre de usuario",
      "El nombre de usuario solo puede contener letras, números y guiones bajos",
      "Mejorar suscripción",
    ],
  ])("speaks %s", async (language, title, label, invalid, upgrade) => {
    await i18n.changeLanguage(language);
    renderProfile(profileRow({ subscription_active: false }));
    expect(await screen.findByRole("heading", { name: title, level: 1 })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: upgrade })).toBeInTheDocument();
    fireEvent.change(screen.getByRole("textbox", { name: label }), { target: { value: "a b c" } });
    expect(await screen.findByText(invalid)).toBeInTheDocument();
  });

  it("shows the avatar messages in German", async () => {
    await i18n.changeLanguage("de");
    renderProfile();
    await screen.findByRole("heading", { name: "Profil", level: 1 });
    fireEvent.change(screen.getByLabelText("Bild auswählen", { selector: "input" }), {
      target: { files: [image("big.jpg", "image/jpeg", 6 * MB)] },
    });
    expect(await screen.findByText("Datei zu groß")).toBeInTheDocument();
    expect(screen.getByText("Das Bild darf höchstens 5 MB groß sein.")).toBeInTheDocument();
  });
});

describe("ProfilePage: time zone", () => {
  const zoneSelect = () => screen.getByRole("combobox", { name: "Time zone" });

  it("preselects the browser's zone while none is saved, and saves the chosen one", async () => {
    renderProfile(profileRow({ time_zone: null }));
    await screen.findByRole("combobox", { name: "Time zone" });
    expect(zoneSelect()).toHaveValue(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(screen.getByText(/Not saved yet: your browser's zone is used/)).toBeInTheDocument();
    // The search narrows the list; the chosen zone is saved through the profile update.
    fireEvent.change(screen.getByRole("searchbox", { name: "Search time zones" }), {
      target: { value: "tokyo" },
    });
    const options = within(zoneSelect())
      .getAllByRole("option")
      .map((option) => option.getAttribute("value"));
    expect(options).toContain("Asia/Tokyo");
    expect(options).not.toContain("Europe/Berlin");
    fireEvent.change(zoneSelect(), { target: { value: "Asia/Tokyo" } });
    fireEvent.click(screen.getByRole("button", { name: "Save time zone" }));
    expect(await screen.findByText("Time zone set to Asia/Tokyo.")).toBeInTheDocument();
    expect(supabaseMock.updates.at(-1)?.values).toEqual({ time_zone: "Asia/Tokyo" });
  });

  it("says so when the search matches no zone", async () => {
    renderProfile(profileRow({ time_zone: "Europe/Berlin" }));
    await screen.findByRole("combobox", { name: "Time zone" });
    expect(zoneSelect()).toHaveValue("Europe/Berlin");
    fireEvent.change(screen.getByRole("searchbox", { name: "Search time zones" }), {
      target: { value: "atlantis" },
    });
    expect(screen.getByText("No time zone matches this search.")).toBeInTheDocument();
    // The saved zone stays selected, so nothing blank is offered for saving.
    expect(zoneSelect()).toHaveValue("Europe/Berlin");
    expect(screen.getByRole("button", { name: "Save time zone" })).toBeDisabled();
  });

  it("shows the server's refusal translated, in German", async () => {
    await i18n.changeLanguage("de");
    renderProfile(profileRow({ time_zone: "Europe/Berlin" }));
    await screen.findByRole("combobox", { name: "Zeitzone" });
    supabaseMock.setTableUpdate("profiles", {
      data: null,
      error: {
        message: "Unknown time zone: America/Ciudad_Juarez",
        code: "22023",
        details: null,
        hint: "Use an IANA zone name such as Europe/Berlin.",
      },
      status: 400,
    });
    fireEvent.change(screen.getByRole("combobox", { name: "Zeitzone" }), {
      target: { value: "Asia/Tokyo" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Zeitzone speichern" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Der Server kennt diese Zeitzone nicht. Bitte wähle eine andere aus der Liste.",
    );
  });
});
