// Serves the SPA: the production build (npm start) or Vite with hot reload (npm run dev).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  type Stats,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import path from "node:path";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { ROOT } from "./config.ts";
import { badRequestTarget, guardServer, sendBadRequest } from "./http-guard.ts";
import { listen } from "./stack.ts";

const WEB = path.join(ROOT, "web");
const DIST = path.join(WEB, "dist");
const CONFIG = path.join(WEB, "vite.config.ts");
const HASH_FILE = path.join(DIST, ".build-hash");
const VITE_BIN = path.join(ROOT, "node_modules/vite/bin/vite.js");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

function walk(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "dist" || e.name === "node_modules" || e.name.startsWith(".")) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** Hash of everything the build depends on, so a warm start skips an unchanged build. */
function sourceHash(env: Record<string, string>): string {
  const h = createHash("sha256");
  const files = [
    ...walk(WEB),
    ...walk(path.join(ROOT, "supabase/functions/_shared/domain")),
    path.join(ROOT, "package-lock.json"),
  ].sort();
  for (const f of files) h.update(f).update(readFileSync(f));
  h.update(JSON.stringify(env));
  return h.digest("hex");
}

export async function buildWeb(
  env: Record<string, string>,
  log: (l: string) => void,
): Promise<void> {
  const hash = sourceHash(env);
  if (existsSync(HASH_FILE) && readFileSync(HASH_FILE, "utf8") === hash) return;
  log("Building the web app…");
  // In a process of its own: Rollup's and Tailwind's native parts keep about 450 MB that the
  // stack's process would otherwise hold for as long as it runs (docs/memory.md).
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [VITE_BIN, "build", "--config", CONFIG, "--mode", "production", "--logLevel", "warn"],
      { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "inherit", "inherit"] },
    );
    child.on("error", reject);
    child.on("exit", (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  if (code !== 0) throw new Error(`The web app's build failed (vite exited with ${code}).`);
  writeFileSync(HASH_FILE, hash);
}

/** Text types worth compressing (images and fonts are compressed already). */
const COMPRESSIBLE = new Set([".html", ".js", ".css", ".json", ".svg", ".txt", ".webmanifest"]);

export type Encoding = "br" | "gzip" | "identity";

/** The encoding to answer with for an `Accept-Encoding` header: brotli, then gzip, else none. */
export function pickEncoding(accept: string | undefined): Encoding {
  const offered = new Map<string, number>();
  for (const part of (accept ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    offered.set(name, q ? Number(q.slice(2)) : 1);
  }
  const allowed = (name: string) => {
    const q = offered.get(name) ?? offered.get("*");
    return q !== undefined && q > 0;
  };
  if (allowed("br")) return "br";
  if (allowed("gzip")) return "gzip";
  return "identity";
}

type Compressed = { mtimeMs: number; size: number; br?: Buffer; gzip?: Buffer };
const compressed = new Map<string, Compressed>();

/** A file's bytes in `encoding`, compressed once per version of the file and kept. */
function encodedBody(
  file: string,
  { mtimeMs, size }: Stats,
  body: Buffer,
  encoding: "br" | "gzip",
): Buffer {
  let entry = compressed.get(file);
  if (!entry || entry.mtimeMs !== mtimeMs || entry.size !== size) {
    entry = { mtimeMs, size };
    compressed.set(file, entry);
  }
  if (encoding === "br") {
    entry.br ??= brotliCompressSync(body, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: 9,
        [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    return entry.br;
  }
  entry.gzip ??= gzipSync(body, { level: 9 });
  return entry.gzip;
}

export async function serveBuiltWeb(
  port: number,
  host: string,
  dist: string = DIST,
): Promise<http.Server> {
  // Addresses without a file of their own get the app's shell (app.html, see
  // web/prerender.config.ts); a folder with an index.html (a pre-rendered page) gets that file.
  const shell = existsSync(path.join(dist, "app.html"))
    ? path.join(dist, "app.html")
    : path.join(dist, "index.html");
  const server = http.createServer((req, res) => {
    // A malformed escape (`GET /%`) threw here and took the whole stack down with this process.
    const bad = badRequestTarget(req.url);
    if (bad) return sendBadRequest(res, bad);
    try {
      const url = new URL(req.url ?? "/", "http://x");
      let file = path.normalize(path.join(dist, decodeURIComponent(url.pathname)));
      if (!file.startsWith(dist)) file = shell;
      let stat = statSync(file, { throwIfNoEntry: false });
      if (stat?.isDirectory()) {
        file = path.join(file, "index.html");
        stat = statSync(file, { throwIfNoEntry: false });
      }
      if (!stat) {
        file = shell;
        stat = statSync(file);
      }
      const ext = path.extname(file);
      let body: Buffer = readFileSync(file);
      const headers: http.OutgoingHttpHeaders = {
        "content-type": TYPES[ext] ?? "application/octet-stream",
        "cache-control": file.includes(`${path.sep}assets${path.sep}`)
          ? "public, max-age=31536000, immutable"
          : "no-cache",
      };
      // Text is sent compressed, as any production host does (Lighthouse measures the transfer).
      if (COMPRESSIBLE.has(ext) && body.length > 1024) {
        headers.vary = "Accept-Encoding";
        const encoding = pickEncoding(req.headers["accept-encoding"]);
        if (encoding !== "identity") {
          body = encodedBody(file, stat, body, encoding);
          headers["content-encoding"] = encoding;
        }
      }
      headers["content-length"] = body.length;
      res.writeHead(200, headers);
      res.end(req.method === "HEAD" ? undefined : body);
    } catch (err) {
      console.error(`web: ${req.method} failed: ${(err as Error).message.split("\n")[0]}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end("The page could not be served; see the stack's log.");
    }
  });
  guardServer(server);
  await listen(server, port, host, "WEB_PORT");
  return server;
}

export async function serveDevWeb(port: number, host: string, env: Record<string, string>) {
  Object.assign(process.env, env);
  const { createServer } = await import("vite");
  const vite = await createServer({ configFile: CONFIG, server: { port, host, strictPort: true } });
  try {
    await vite.listen();
  } catch (err) {
    if ((err as Error).message.includes("already in use")) {
      const { StackError } = await import("./errors.ts");
      throw new StackError(
        `Port ${port} is already in use; set WEB_PORT to another port.`,
        "PORT_IN_USE",
      );
    }
    throw err;
  }
  return vite;
}
