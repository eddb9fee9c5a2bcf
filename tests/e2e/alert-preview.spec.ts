// The alert settings page's preview (issue 28): a German subscriber sees their next alert and
// digest in German, from the very texts the delivery worker sends (`messages`, decision 0059).
// Against `npm start`; the enterprise demo user's stored language is set back to English after.
import { expect, test, type Page } from "@playwright/test";

async function logIn(page: Page, email: string, redirect: string) {
  await page.goto(`/auth/login?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("demo-password-1");
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** Reads the page in `language` and saves the delivery options: the profile keeps that language. */
async function saveOptionsIn(page: Page, language: "de" | "en", save: string, saved: string) {
  await page.evaluate((lng) => localStorage.setItem("language", lng), language);
  await page.reload();
  await page.getByRole("button", { name: save }).click();
  await expect(page.getByText(saved)).toBeVisible({ timeout: 20_000 });
}

test("a German subscriber's alert preview is in German, with German numbers", async ({ page }) => {
  // Four page loads and two saves on a shared machine.
  test.setTimeout(180_000);
  await logIn(page, "enterprise@demo.local", "/dashboard/settings");
  await expect(page.getByRole("heading", { name: "Alert delivery" })).toBeVisible({
    timeout: 20_000,
  });
  try {
    await saveOptionsIn(page, "de", "Zustelloptionen speichern", "Zustelloptionen gespeichert");
    const preview = page.getByRole("heading", { name: "Vorschau Ihrer Alarme" });
    await expect(preview).toBeVisible();
    await expect(page.getByText(/^Gesendet auf Deutsch, Zeiten in /)).toBeVisible();
    const single = page.getByTestId("preview-single-heading");
    await expect(single).toHaveText(/^BTC\/USDT stieg um \+12,35\s%\sin (\d+ Min\.|10 s)$/);
    await expect(page.getByTestId("preview-digest-heading")).toHaveText(
      "3 Symbole haben Ihre Alarmschwelle überschritten",
    );
    await expect(
      page.getByRole("region", { name: "Einzelner Alarm" }).getByRole("listitem"),
    ).toContainText(/Preis: 65\.432,10\s\$/);
  } finally {
    // Other specs expect this user's messages in English.
    await saveOptionsIn(page, "en", "Save delivery options", "Delivery options saved");
  }
  await expect(page.getByText(/^Sent in English, times in /)).toBeVisible();
});
