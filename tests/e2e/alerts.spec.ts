// Alert delivery in the running product (`npm start`: scans every 10 s on the simulated market,
// MailDev and the Discord/Telegram stand-ins on the ports playwright.config.ts gives them): the
// enterprise demo user's alerts arrive by e-mail, Discord and Telegram within 30 s of the scan
// that crossed the threshold, and show up on the settings page. Then the unsubscribe page.
import { expect, test, type Page } from "@playwright/test";

const apiPort = Number(process.env.E2E_API_PORT ?? 54351);
const mailUrl = `http://127.0.0.1:${process.env.E2E_MAIL_UI_PORT ?? apiPort + 3}`;
const chatUrl = `http://127.0.0.1:${process.env.E2E_CHAT_STANDIN_PORT ?? apiPort + 5}`;
const WEBHOOK_ID = "100000000000000004";
const CHAT_ID = "-1000000000004";

async function logIn(page: Page, email: string, redirect: string) {
  await page.goto(`/auth/login?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("demo-password-1");
  await page.getByRole("button", { name: "Sign In" }).click();
}

interface Mail {
  subject: string;
  text: string;
  date: string;
  to: { address: string }[];
}
interface ChatRequest {
  service: string;
  status: number;
  target: string;
  at: string;
  body: { embeds?: { timestamp?: string }[]; text?: string };
}

test("the enterprise user's alerts arrive by e-mail, Discord and Telegram within 30 s of the scan", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // The first alert of each channel (the stack started with an empty data folder).
  let mail: Mail | undefined;
  let discord: ChatRequest | undefined;
  let telegram: ChatRequest | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await fetch(`${mailUrl}/email`)).json()) as Mail[];
        mail = mails.find((m) => m.to.some((t) => t.address === "enterprise@demo.local"));
        const requests = (await (
          await fetch(`${chatUrl}/__standins/requests`)
        ).json()) as ChatRequest[];
        discord = requests.find(
          (r) => r.service === "discord" && r.target === WEBHOOK_ID && r.status === 200,
        );
        telegram = requests.find(
          (r) => r.service === "telegram" && r.target === CHAT_ID && r.status === 200,
        );
        return Boolean(mail && discord && telegram);
      },
      { timeout: 90_000, intervals: [1000] },
    )
    .toBe(true);

  expect(mail!.text).toMatch(/(rose|fell) [+-]\d+\.\d{2}%/);
  expect(mail!.text).toContain("/dashboard?symbol=");
  expect(mail!.text).toContain("/alerts/unsubscribe?token=");
  // The Discord embed carries the scan's time; the stand-in records when it received the post.
  const scanned = Date.parse(discord!.body.embeds![0]!.timestamp!);
  expect(Date.parse(discord!.at) - scanned).toBeLessThan(30_000);
  expect(Date.parse(telegram!.at) - scanned).toBeLessThan(30_000);
  expect(Date.parse(mail!.date) - scanned).toBeLessThan(30_000);
  expect(telegram!.body.text).toMatch(/[+-]\d+\.\d{2}%/);

  // The stand-ins' page lists what they received.
  await page.goto(chatUrl);
  await expect(page.getByRole("heading", { name: "Discord & Telegram stand-ins" })).toBeVisible();

  // The user sees their own recent alerts on the settings page.
  await logIn(page, "enterprise@demo.local", "/dashboard/settings");
  await expect(page.getByRole("heading", { name: "Alert delivery" })).toBeVisible({
    timeout: 20_000,
  });
  const recent = page
    .getByRole("region", { name: "Your recent alerts" })
    .or(
      page.locator("section", { has: page.getByRole("heading", { name: "Your recent alerts" }) }),
    );
  await expect(recent.locator("tbody tr").first()).toBeVisible({ timeout: 20_000 });
  await expect(recent.getByText("Telegram").first()).toBeVisible();
});

test("the unsubscribe page refuses an unknown link", async ({ page }) => {
  await page.goto("/alerts/unsubscribe?token=00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: "Unsubscribe from e-mail alerts" })).toBeVisible();
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("alert")).toHaveText("This unsubscribe link is not valid.");
});
