// A small SMTP client over Deno.connect, for local delivery to the stack's mail catcher (MailDev).
// Plain SMTP (no TLS, no AUTH): EHLO, MAIL FROM, RCPT TO, DATA, QUIT. Hosted edge functions
// block ports 25 and 587, so production sends through Resend's HTTP API instead (email.ts).

export interface SmtpMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

export interface SmtpOptions {
  host: string;
  port: number;
  /** The name sent with EHLO. */
  clientName?: string;
  timeoutMs?: number;
  connect?: (opts: { hostname: string; port: number }) => Promise<Deno.Conn>;
}

export class SmtpError extends Error {
  constructor(message: string, readonly code: number | null) {
    super(message);
  }
  /** 4xx replies and broken connections are worth another try; 5xx are not. */
  get permanent(): boolean {
    return this.code !== null && this.code >= 500;
  }
}

/** RFC 2047 encoded-word for a header value that is not plain ASCII. */
export function encodeHeader(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value)) return value;
  const bytes = new TextEncoder().encode(value);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return `=?UTF-8?B?${btoa(bin)}?=`;
}

function base64Lines(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return (btoa(bin).match(/.{1,76}/g) ?? []).join("\r\n");
}

/** The message as RFC 5322 text (multipart/alternative, base64 parts), CRLF line ends. */
export function buildMime(msg: SmtpMessage, now: Date = new Date()): string {
  const boundary = `b_${crypto.randomUUID().replaceAll("-", "")}`;
  const domain = msg.from.split("@")[1]?.replace(/[>\s]/g, "") || "localhost";
  const headers: Record<string, string> = {
    "From": msg.from,
    "To": msg.to,
    "Subject": encodeHeader(msg.subject),
    "Date": now.toUTCString().replace("GMT", "+0000"),
    "Message-ID": `<${crypto.randomUUID()}@${domain}>`,
    "MIME-Version": "1.0",
    "Content-Type": `multipart/alternative; boundary="${boundary}"`,
    ...msg.headers,
  };
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v.replace(/[\r\n]+/g, " ")}`);
  return [
    ...head,
    "",
    `--${boundary}`,
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    base64Lines(msg.text),
    `--${boundary}`,
    "Content-Type: text/html; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    base64Lines(msg.html),
    `--${boundary}--`,
    "",
  ].join("\r\n");
}

/** The bare address of `Name <a@b>` or `a@b`. */
export function bareAddress(value: string): string {
  const m = value.match(/<([^>]+)>/);
  return (m ? m[1]! : value).trim();
}

/** Sends one message; resolves with the server's answer to DATA, throws SmtpError. */
export async function sendSmtp(opts: SmtpOptions, msg: SmtpMessage): Promise<string> {
  for (const addr of [msg.from, msg.to]) {
    if (/[\r\n]/.test(addr)) throw new SmtpError("An address contains a line break.", 501);
  }
  const connect = opts.connect ?? ((o) => Deno.connect(o));
  const conn = await connect({ hostname: opts.host, port: opts.port }).catch((err) => {
    throw new SmtpError(
      `SMTP connection to ${opts.host}:${opts.port} failed: ${err.message}`,
      null,
    );
  });
  const timeout = setTimeout(() => {
    try {
      conn.close();
    } catch { /* closed already */ }
  }, opts.timeoutMs ?? 15_000);
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = "";
  const chunk = new Uint8Array(4096);

  async function reply(): Promise<{ code: number; text: string }> {
    while (true) {
      // A reply is complete at a line "NNN text" (no dash after the code).
      const lines = buffer.split("\r\n");
      for (let i = 0; i < lines.length - 1; i++) {
        if (/^\d{3}( |$)/.test(lines[i]!)) {
          const text = lines.slice(0, i + 1).join("\n");
          buffer = lines.slice(i + 1).join("\r\n");
          return { code: Number(lines[i]!.slice(0, 3)), text };
        }
      }
      const n = await conn.read(chunk).catch(() => null);
      if (n === null) throw new SmtpError("The SMTP server closed the connection.", null);
      buffer += decoder.decode(chunk.subarray(0, n));
    }
  }
  async function write(line: string) {
    const bytes = encoder.encode(line);
    let off = 0;
    while (off < bytes.length) off += await conn.write(bytes.subarray(off));
  }
  async function command(line: string, expect: number): Promise<string> {
    await write(`${line}\r\n`);
    const r = await reply();
    if (Math.floor(r.code / 100) !== Math.floor(expect / 100)) {
      throw new SmtpError(`SMTP ${line.split(" ")[0]} refused: ${r.text}`, r.code);
    }
    return r.text;
  }

  try {
    const greeting = await reply();
    if (greeting.code !== 220) {
      throw new SmtpError(`SMTP greeting: ${greeting.text}`, greeting.code);
    }
    await command(`EHLO ${opts.clientName ?? "moverscan.local"}`, 250);
    await command(`MAIL FROM:<${bareAddress(msg.from)}>`, 250);
    await command(`RCPT TO:<${bareAddress(msg.to)}>`, 250);
    await command("DATA", 354);
    // Dot-stuffing: a line starting with "." gets a second one.
    const body = buildMime(msg).replace(/\r\n\./g, "\r\n..");
    const answer = await command(`${body}\r\n.`, 250);
    await write("QUIT\r\n").catch(() => {});
    return answer;
  } finally {
    clearTimeout(timeout);
    try {
      conn.close();
    } catch { /* closed already */ }
  }
}
