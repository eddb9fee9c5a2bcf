// The alert-delivery side of the local stack (decision 0020): MailDev (SMTP + web UI), the
// Discord/Telegram stand-ins, the settings the functions host passes to deliver-alerts, and the
// delivery schedule.
import {
  deliveryIntervalMs,
  startDeliveryCron,
  type DeliveryCron,
  type Listen,
} from "./delivery-cron.ts";
import { mailPorts, startMailDev, type MailDev } from "./maildev.ts";
import { type ChatStandInClient, startChatStandInProcess } from "./standins-process.ts";
import { DEFAULT_CHAT_STANDIN_PORT } from "./standins.ts";

export interface AlertServicesOptions {
  smtpPort: number;
  mailUiPort: number;
  /** The Discord/Telegram stand-in's port (0: any free port). */
  chatPort: number;
  /** The stand-ins keep request bodies (default true; off for the bench's largest runs). */
  recordBodies?: boolean;
  /** Run the delivery schedule (default true). */
  cron?: boolean;
  deliveryIntervalMs?: number;
}

export interface AlertServices {
  mail: MailDev;
  /** The stand-ins run in a child process of their own (a busy stack must not stall them). */
  chat: ChatStandInClient;
  /** What deliver-alerts reads (real settings in the environment win). */
  functionsEnv: Record<string, string>;
  /** `listen`: the enqueue's NOTIFY wakes the worker at once (decision 0069). */
  startCron(apiUrl: string, serviceKey: string, listen?: Listen): void;
  /** Runs the delivery schedule's job once now (tests). */
  deliverNow(): Promise<void>;
  stop(): Promise<void>;
}

/** The ports `npm start` uses: MAIL_UI_PORT, MAIL_SMTP_PORT, CHAT_STANDIN_PORT or the defaults. */
export function alertServicePorts(env: NodeJS.ProcessEnv = process.env): AlertServicesOptions {
  const { smtpPort, uiPort } = mailPorts(env);
  const chat = Number(env.CHAT_STANDIN_PORT);
  return {
    smtpPort,
    mailUiPort: uiPort,
    chatPort: Number.isInteger(chat) && chat > 0 && chat < 65536 ? chat : DEFAULT_CHAT_STANDIN_PORT,
  };
}

export async function startAlertServices(
  host: string,
  opts: AlertServicesOptions,
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<AlertServices> {
  const mail = await startMailDev({ host, smtpPort: opts.smtpPort, uiPort: opts.mailUiPort, log });
  let chat: ChatStandInClient;
  try {
    const resendRate = Number(env.RESEND_RATE_PER_SECOND);
    chat = await startChatStandInProcess({
      host,
      port: opts.chatPort,
      log,
      recordBodies: opts.recordBodies,
      // The stand-in meters the Resend team at the rate the workers are told was sold.
      ...(Number.isFinite(resendRate) && resendRate > 0 ? { resendPerSecond: resendRate } : {}),
    });
  } catch (err) {
    await mail.stop();
    throw err;
  }
  const pick = (name: string, fallback: string) => env[name]?.trim() || fallback;
  const functionsEnv: Record<string, string> = {
    SMTP_HOST: host,
    SMTP_PORT: String(mail.smtpPort),
    DISCORD_API_URL: pick("DISCORD_API_URL", `${chat.url}/api`),
    TELEGRAM_API_URL: pick("TELEGRAM_API_URL", chat.url),
    TELEGRAM_BOT_TOKEN: pick("TELEGRAM_BOT_TOKEN", "123456789:local-stand-in-token"),
    ALERT_EMAIL_FROM: pick("ALERT_EMAIL_FROM", "MoverScan Alerts <alerts@moverscan.local>"),
    ...(env.RESEND_API_KEY ? { RESEND_API_KEY: env.RESEND_API_KEY } : {}),
    // The Resend stand-in is at <CHAT_STANDIN_PORT's URL>/resend (set RESEND_API_URL to it).
    ...(env.RESEND_API_URL ? { RESEND_API_URL: env.RESEND_API_URL } : {}),
  };
  // The limits the workers pace by (decision 0031), when set.
  for (const name of [
    "TELEGRAM_PAID_BROADCAST",
    "TELEGRAM_RATE_PER_SECOND",
    "RESEND_RATE_PER_SECOND",
    "RESEND_BATCH_SIZE",
    "DELIVERY_CONCURRENCY",
  ]) {
    const value = env[name]?.trim();
    if (value) functionsEnv[name] = value;
  }
  let cron: DeliveryCron | null = null;
  let target: { apiUrl: string; serviceKey: string } | null = null;
  return {
    mail,
    chat,
    functionsEnv,
    startCron(apiUrl, serviceKey, listen) {
      target = { apiUrl, serviceKey };
      if (opts.cron === false) return;
      cron = startDeliveryCron({
        apiUrl,
        serviceKey,
        intervalMs: opts.deliveryIntervalMs ?? deliveryIntervalMs(env),
        log,
        ...(listen ? { listen } : {}),
      });
    },
    async deliverNow() {
      if (cron) return cron.tick();
      if (!target) throw new Error("the functions host is not running");
      const once = startDeliveryCron({ ...target, intervalMs: 3_600_000, log });
      await once.tick();
      await once.stop();
    },
    async stop() {
      await cron?.stop();
      await chat.stop();
      await mail.stop();
    },
  };
}
