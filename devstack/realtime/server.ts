// The local stack's Realtime: a stand-in for Supabase Realtime at /realtime/v1/websocket that
// speaks the Phoenix channel protocol of @supabase/realtime-js (vsn 2.0.0 and 1.0.0).
//
// - Channels: phx_join (config broadcast self/ack, presence key, private, access_token),
//   phx_leave, heartbeat, access_token refresh, broadcast (JSON or binary frames, with ack),
//   presence track/untrack with presence_state/presence_diff.
// - Private channels are authorised against the policies on realtime.messages (authorize.ts).
// - Broadcast from Database: realtime.send() stores a row and NOTIFYs `realtime:broadcast`
//   with its id; every notification is fanned out to the channels of its topic, encoded once.
// - POST /realtime/v1/api/broadcast: the REST broadcast realtime-js falls back to.
// Malformed frames, unknown topics and silent clients are logged and never crash the server.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { errors as joseErrors, jwtVerify } from "jose";
import { WebSocket, WebSocketServer, type RawData } from "ws";
import type { Db } from "../database.ts";
import { authorizeTopic, type Identity, type Permissions } from "./authorize.ts";
import {
  decodeFrame,
  encodeFrame,
  encodeUserBroadcast,
  FrameError,
  SUPPORTED_VSN,
  type Frame,
  type Vsn,
} from "./protocol.ts";

export const WEBSOCKET_PATH = "/realtime/v1/websocket";
export const BROADCAST_PATH = "/realtime/v1/api/broadcast";
export const NOTIFY_CHANNEL = "realtime:broadcast";
/**
 * The database's control topic (migration 20261123100000): `authorization_changed` with
 * `{user_id}` when what that user may read changed (plan, subscription, ban, role, a group
 * membership). Its open private channels are authorised again and those now refused closed.
 */
export const AUTHORIZATION_TOPIC = "system:authorization";
export const AUTHORIZATION_EVENT = "authorization_changed";

export interface RealtimeOptions {
  db: Db;
  jwtSecret: string;
  publishableKey: string;
  secretKey: string;
  log: (line: string) => void;
  /** A socket that sends nothing (not even heartbeats) for this long is closed. */
  idleTimeoutMs?: number;
  /** Channels one connection may hold (hosted Realtime: 100). */
  maxChannelsPerSocket?: number;
  maxEventsPerSecond?: number;
  /** Open connections per client address (hosted Realtime: 200 concurrent clients). */
  maxConnectionsPerClient?: number;
  /** Channel joins per second per client address (hosted Realtime: 100 per second). */
  maxJoinsPerSecond?: number;
  /**
   * Join authorisations (each a database transaction) running at once; the rest wait their
   * turn, so a join storm never holds more than this many of the database's connections and
   * REST requests keep getting theirs.
   */
  maxConcurrentAuthorizations?: number;
  /** Database broadcasts older than this are pruned from realtime.messages. */
  retentionMs?: number;
  /**
   * A join answered after longer than this is logged with where its time went (waiting for an
   * authorisation slot, waiting for the database, the policy check itself). Default 2 s.
   */
  slowJoinLogMs?: number;
}

/** What the join authorisations have done since the server started (stats()). */
export interface AuthorizationStats {
  /** Authorisation transactions started. */
  checks: number;
  /**
   * Authorisations answered by a check of the same topic, role and claims that had not begun
   * its queries yet.
   */
  shared: number;
  /** Queued checks not run because every join waiting on them had been left or closed. */
  skipped: number;
  /** Checks running and waiting now. */
  running: number;
  queued: number;
}

/** A join authorisation's verdict and where its time went (ms). */
interface Verdict {
  perms: Permissions;
  /** Waiting for one of the maxConcurrentAuthorizations slots, behind `ahead` other checks. */
  queuedMs: number;
  ahead: number;
  /** From taking the slot until the database began the check's transaction. */
  dbWaitMs: number;
  /** The check's own queries. */
  checkMs: number;
}

/** One authorisation; identical ones arriving before its queries begin share it. */
interface Check {
  topic: string;
  who: Identity;
  key: string;
  /** Whether each caller still wants the verdict (a join left or a closed socket does not). */
  wanted: (() => boolean)[];
  queuedAt: number;
  ahead: number;
  resolve: (v: Verdict) => void;
  reject: (err: unknown) => void;
  promise: Promise<Verdict>;
}

/** A queued check whose every join was left or closed before it could run. */
class Abandoned extends Error {
  constructor() {
    super("the join was left before it was authorised");
  }
}

/** A join whose authorisation has not been answered yet (a phx_leave with its ref drops it). */
interface PendingJoin {
  joinRef: string | null;
  left: boolean;
}

interface Peer {
  connections: number;
  joinTokens: number;
  refilledAt: number;
  limitedLogged: boolean;
}

interface Client {
  id: number;
  ws: WebSocket;
  peer: string;
  vsn: Vsn;
  apiIdentity: Identity;
  lastSeen: number;
  channels: Map<string, Sub>;
  /** Joins being authorised, by topic. */
  pending: Map<string, Set<PendingJoin>>;
  tokens: number;
  refilledAt: number;
  limitedLogged: boolean;
}

interface Sub {
  client: Client;
  topic: string;
  subTopic: string;
  key: string;
  joinRef: string | null;
  isPrivate: boolean;
  self: boolean;
  ack: boolean;
  presenceKey: string;
  identity: Identity;
  perms: Permissions;
  expiry?: NodeJS.Timeout;
}

interface PresenceMeta {
  sub: Sub;
  phx_ref: string;
  meta: Record<string, unknown>;
}

class AuthError extends Error {}

const ALL_ALLOWED: Permissions = {
  read: { broadcast: true, presence: true },
  write: { broadcast: true, presence: true },
};
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
const STATUS_TEXT: Record<number, string> = {
  401: "Unauthorized",
  404: "Not Found",
  429: "Too Many Requests",
};
const MAX_TIMER_MS = 2 ** 31 - 1;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "access-control-allow-origin": "*" },
  });
}

export class RealtimeServer {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  private readonly clients = new Set<Client>();
  private readonly topics = new Map<string, Set<Sub>>();
  private readonly presence = new Map<string, Map<string, PresenceMeta[]>>();
  private readonly key: Uint8Array;
  private readonly idleTimeoutMs: number;
  private readonly maxChannels: number;
  private readonly maxEvents: number;
  private readonly maxConnections: number;
  private readonly maxJoins: number;
  private readonly maxAuthorizations: number;
  /** Per client address: open connections and the join token bucket. */
  private readonly peers = new Map<string, Peer>();
  private authorizing = 0;
  private readonly authQueue: Check[] = [];
  /** Checks whose queries have not begun (queued, or waiting for the database), by identity. */
  private readonly openChecks = new Map<string, Check>();
  private readonly authStats = { checks: 0, shared: 0, skipped: 0 };
  private readonly slowJoinLogMs: number;
  private readonly retentionMs: number;
  private nextId = 1;
  private sweeper?: NodeJS.Timeout;
  private pruner?: NodeJS.Timeout;
  private unlisten?: () => Promise<void>;
  private dbQueue: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly opts: RealtimeOptions) {
    this.key = new TextEncoder().encode(opts.jwtSecret);
    this.idleTimeoutMs = opts.idleTimeoutMs ?? 60_000;
    this.maxChannels = opts.maxChannelsPerSocket ?? 100;
    this.maxEvents = opts.maxEventsPerSecond ?? 100;
    this.maxConnections = opts.maxConnectionsPerClient ?? 200;
    this.maxJoins = opts.maxJoinsPerSecond ?? 100;
    this.maxAuthorizations = opts.maxConcurrentAuthorizations ?? 1;
    this.retentionMs = opts.retentionMs ?? 60 * 60 * 1000;
    this.slowJoinLogMs = opts.slowJoinLogMs ?? 2_000;
  }

  /** Starts listening for database broadcasts and the housekeeping timers. */
  async start(): Promise<void> {
    this.unlisten = await this.opts.db.listen(NOTIFY_CHANNEL, (id) => this.onNotify(id));
    const sweepEvery = Math.max(50, Math.min(5_000, Math.floor(this.idleTimeoutMs / 2)));
    this.sweeper = setInterval(() => this.sweepIdle(), sweepEvery);
    this.sweeper.unref();
    this.pruner = setInterval(() => void this.prune(), Math.min(this.retentionMs, 60_000));
    this.pruner.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweeper);
    clearInterval(this.pruner);
    for (const client of this.clients) {
      this.dropClient(client);
      client.ws.close(1001, "server shutting down");
      client.ws.terminate();
    }
    await new Promise<void>((r) => this.wss.close(() => r()));
    await this.unlisten?.().catch(() => {});
    await this.dbQueue.catch(() => {});
  }

  /**
   * Resolves once the database broadcasts received so far, and any that arrive meanwhile, have
   * been handled (a bench's set-up waits for them, so they are not handled during its measure).
   */
  async settled(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.dbQueue;
      await seen.catch(() => {});
    } while (seen !== this.dbQueue);
  }

  /** Cuts every connection, as a network failure would; clients reconnect on their own. */
  dropConnections(): void {
    for (const client of this.clients) {
      this.dropClient(client);
      client.ws.terminate();
    }
  }

  /**
   * Forgets every channel subscription without telling anyone, as a Realtime node that lost its
   * state while the sockets stayed up: clients still believe they are joined, their heartbeats
   * are answered, and no broadcast reaches them (the fault the api function's probe must notice).
   */
  deafen(): void {
    this.topics.clear();
  }

  /** Figures for the bench and tests: sockets, subscriptions, topics, join authorisations. */
  stats(): {
    sockets: number;
    subscriptions: number;
    topics: number;
    authorizations: AuthorizationStats;
  } {
    let subs = 0;
    for (const set of this.topics.values()) subs += set.size;
    return {
      sockets: this.clients.size,
      subscriptions: subs,
      topics: this.topics.size,
      authorizations: {
        ...this.authStats,
        running: this.authorizing,
        queued: this.authQueue.length,
      },
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Connections
  // ---------------------------------------------------------------------------------------------

  /** Handles an HTTP upgrade for the WebSocket path; refuses bad keys and versions. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? "/", "http://localhost");
    const refuse = (status: number, message: string) => {
      this.opts.log(`realtime: refused a connection (${status}): ${message}`);
      const body = JSON.stringify({ message });
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Bad Request"}\r\n` +
          `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    };
    if (this.stopped) return refuse(400, "Realtime is shutting down");
    if (url.pathname !== WEBSOCKET_PATH) return refuse(404, `No WebSocket at ${url.pathname}`);
    const vsn = (url.searchParams.get("vsn") ?? "1.0.0") as Vsn;
    if (!SUPPORTED_VSN.includes(vsn)) return refuse(400, `Unsupported protocol version ${vsn}`);
    const apikey = url.searchParams.get("apikey") ?? String(req.headers.apikey ?? "");
    let apiIdentity: Identity;
    if (apikey === this.opts.publishableKey)
      apiIdentity = { role: "anon", claims: { role: "anon" } };
    else if (apikey === this.opts.secretKey)
      apiIdentity = { role: "service_role", claims: { role: "service_role" } };
    else return refuse(401, "Invalid API key");
    const peerAddress = req.socket.remoteAddress ?? "unknown";
    const peer = this.peer(peerAddress);
    if (peer.connections >= this.maxConnections) {
      return refuse(429, "ConnectionRateLimitReached: Too many connected users");
    }

    this.wss.handleUpgrade(req, socket, head, (ws) => {
      // Counted once upgraded (ws calls back synchronously), so a failed handshake costs nothing.
      peer.connections++;
      const client: Client = {
        id: this.nextId++,
        ws,
        peer: peerAddress,
        vsn,
        apiIdentity,
        lastSeen: Date.now(),
        channels: new Map(),
        pending: new Map(),
        tokens: this.maxEvents,
        refilledAt: Date.now(),
        limitedLogged: false,
      };
      this.clients.add(client);
      ws.on("message", (data, isBinary) => this.onMessage(client, data, isBinary));
      ws.on("close", () => this.dropClient(client));
      ws.on("error", (err) =>
        this.opts.log(`realtime: socket #${client.id} error: ${err.message}`),
      );
    });
  }

  private peer(address: string): Peer {
    let peer = this.peers.get(address);
    if (!peer) {
      peer = {
        connections: 0,
        joinTokens: this.maxJoins,
        refilledAt: Date.now(),
        limitedLogged: false,
      };
      this.peers.set(address, peer);
    }
    return peer;
  }

  /** Takes one join from the client address's bucket (maxJoinsPerSecond, refilled continuously). */
  private allowJoin(client: Client): boolean {
    const peer = this.peer(client.peer);
    const now = Date.now();
    peer.joinTokens = Math.min(
      this.maxJoins,
      peer.joinTokens + ((now - peer.refilledAt) / 1000) * this.maxJoins,
    );
    peer.refilledAt = now;
    if (peer.joinTokens >= 1) {
      peer.joinTokens -= 1;
      peer.limitedLogged = false;
      return true;
    }
    if (!peer.limitedLogged) {
      peer.limitedLogged = true;
      this.opts.log(
        `realtime: ${client.peer} joins more than ${this.maxJoins} channels per second; refusing joins`,
      );
    }
    return false;
  }

  /**
   * Authorises `who` on `topic` when one of the maxConcurrentAuthorizations slots is free.
   *
   * Identical requests (same topic, role and claims) share one check as long as its queries
   * have not begun (it waits for a slot, or for the database to give it a connection): its
   * verdict is then decided after every one of them arrived, exactly what each would have got
   * alone. A check whose queries have begun is never shared (a policy change committed
   * meanwhile must count for the later join). A queued check whose callers all gave up
   * (`wanted` says no: the join was left, the socket closed) is not run at all, so a client's
   * join retries do not pile up behind each other.
   */
  private authorize(topic: string, who: Identity, wanted: () => boolean = () => true) {
    const key = `${topic}\u0000${who.role}\u0000${JSON.stringify(who.claims)}`;
    const queued = this.openChecks.get(key);
    if (queued) {
      this.authStats.shared++;
      queued.wanted.push(wanted);
      return queued.promise;
    }
    let resolve!: (v: Verdict) => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<Verdict>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const check: Check = {
      topic,
      who,
      key,
      wanted: [wanted],
      queuedAt: performance.now(),
      ahead: this.authorizing + this.authQueue.length,
      resolve,
      reject,
      promise,
    };
    this.authQueue.push(check);
    this.openChecks.set(key, check);
    this.pumpChecks();
    return promise;
  }

  /** Starts queued checks while slots are free. */
  private pumpChecks() {
    while (this.authorizing < this.maxAuthorizations && this.authQueue.length > 0) {
      const check = this.authQueue.shift()!;
      if (!check.wanted.some((w) => w())) {
        this.forget(check);
        this.authStats.skipped++;
        check.reject(new Abandoned());
        continue;
      }
      this.authorizing++;
      void this.runCheck(check).finally(() => {
        this.authorizing--;
        this.pumpChecks();
      });
    }
  }

  /** The check takes no more identical requests. */
  private forget(check: Check) {
    if (this.openChecks.get(check.key) === check) this.openChecks.delete(check.key);
  }

  private async runCheck(check: Check) {
    const startedAt = performance.now();
    let begunAt = startedAt;
    try {
      // Let pending I/O (REST requests) in first: an embedded PGlite runs on this thread and
      // answers through microtasks, so back-to-back authorisations would otherwise starve it.
      await new Promise((resolve) => setImmediate(resolve));
      this.authStats.checks++;
      const perms = await authorizeTopic(this.opts.db, check.topic, check.who, () => {
        begunAt = performance.now();
        this.forget(check);
      });
      const end = performance.now();
      check.resolve({
        perms,
        queuedMs: startedAt - check.queuedAt,
        ahead: check.ahead,
        dbWaitMs: begunAt - startedAt,
        checkMs: end - begunAt,
      });
    } catch (err) {
      check.reject(err);
    } finally {
      this.forget(check);
    }
  }

  private dropClient(client: Client) {
    if (!this.clients.delete(client)) return;
    const peer = this.peers.get(client.peer);
    if (peer) peer.connections--;
    for (const sub of [...client.channels.values()]) this.removeSub(sub);
  }

  private sweepIdle() {
    const now = Date.now();
    // An address without connections whose join bucket has refilled is forgotten.
    for (const [address, peer] of this.peers) {
      if (peer.connections <= 0 && now - peer.refilledAt > 1000) this.peers.delete(address);
    }
    for (const client of this.clients) {
      if (now - client.lastSeen > this.idleTimeoutMs) {
        this.opts.log(
          `realtime: closing socket #${client.id}: no message or heartbeat for ${Math.round((now - client.lastSeen) / 1000)} s`,
        );
        this.dropClient(client);
        client.ws.terminate();
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Frames
  // ---------------------------------------------------------------------------------------------

  private send(client: Client, frame: Frame) {
    if (client.ws.readyState !== WebSocket.OPEN) return;
    client.ws.send(encodeFrame(frame, client.vsn));
  }

  private reply(
    client: Client,
    f: Frame,
    status: "ok" | "error",
    response: Record<string, unknown> = {},
  ) {
    this.send(client, {
      join_ref: f.join_ref,
      ref: f.ref,
      topic: f.topic,
      event: "phx_reply",
      payload: { status, response },
    });
  }

  private allowEvent(client: Client, f: Frame): boolean {
    const now = Date.now();
    client.tokens = Math.min(
      this.maxEvents,
      client.tokens + ((now - client.refilledAt) / 1000) * this.maxEvents,
    );
    client.refilledAt = now;
    if (client.tokens >= 1) {
      client.tokens -= 1;
      client.limitedLogged = false;
      return true;
    }
    if (!client.limitedLogged) {
      client.limitedLogged = true;
      this.opts.log(
        `realtime: socket #${client.id} sends more than ${this.maxEvents} events per second; dropping them (${f.event} on ${f.topic})`,
      );
    }
    return false;
  }

  private onMessage(client: Client, data: RawData, isBinary: boolean) {
    client.lastSeen = Date.now();
    const raw = Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.isBuffer(data)
        ? data
        : Buffer.from(data);
    let frame: Frame;
    try {
      frame = decodeFrame(raw, isBinary, client.vsn);
    } catch (err) {
      const reason = err instanceof FrameError ? err.message : String(err);
      this.opts.log(`realtime: ignored a malformed frame from socket #${client.id}: ${reason}`);
      return;
    }
    if (frame.topic === "phoenix") {
      if (frame.event === "heartbeat") this.reply(client, frame, "ok");
      else this.reply(client, frame, "error", { reason: "unknown phoenix event" });
      return;
    }
    if (!this.allowEvent(client, frame)) {
      this.reply(client, frame, "error", { reason: "ClientRateLimited: too many messages" });
      return;
    }
    if (frame.event === "phx_join") {
      void this.join(client, frame).catch((err: unknown) => {
        if (err instanceof Abandoned) return;
        this.opts.log(`realtime: join of ${frame.topic} failed: ${(err as Error).message}`);
        this.reply(client, frame, "error", { reason: "Unable to join the channel right now" });
      });
      return;
    }
    if (frame.event === "phx_leave") this.leavePending(client, frame);
    const sub = client.channels.get(frame.topic);
    if (!sub && frame.event === "phx_leave") {
      // realtime-js leaves channels whose join was refused; nothing to do.
      this.reply(client, frame, "ok");
      return;
    }
    if (!sub) {
      this.opts.log(
        `realtime: socket #${client.id} sent ${frame.event} to ${frame.topic}, which it has not joined`,
      );
      this.reply(client, frame, "error", { reason: "unmatched topic" });
      return;
    }
    switch (frame.event) {
      case "phx_leave":
        this.removeSub(sub);
        this.reply(client, frame, "ok");
        return;
      case "access_token":
        void this.refreshToken(sub, frame.payload.access_token).catch((err: unknown) => {
          this.opts.log(
            `realtime: token refresh on ${sub.topic} failed: ${(err as Error).message}`,
          );
        });
        return;
      case "broadcast":
        this.clientBroadcast(sub, frame);
        return;
      case "presence":
        this.clientPresence(sub, frame);
        return;
      default:
        this.opts.log(`realtime: socket #${client.id} sent unknown event ${frame.event}`);
        this.reply(client, frame, "error", { reason: `unknown event ${frame.event}` });
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Identity
  // ---------------------------------------------------------------------------------------------

  private async identify(
    token: unknown,
    fallback: Identity,
  ): Promise<{ who: Identity; exp?: number }> {
    if (token === undefined || token === null || token === "") return { who: fallback };
    if (typeof token !== "string")
      throw new AuthError("InvalidJWTToken: the token must be a string");
    if (token === this.opts.publishableKey)
      return { who: { role: "anon", claims: { role: "anon" } } };
    if (token === this.opts.secretKey)
      return { who: { role: "service_role", claims: { role: "service_role" } } };
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ["HS256"] });
      const role = payload.role;
      if (role !== "anon" && role !== "authenticated" && role !== "service_role") {
        throw new AuthError(`InvalidJWTToken: unknown role ${String(role)}`);
      }
      return { who: { role, claims: payload as Record<string, unknown> }, exp: payload.exp };
    } catch (err) {
      if (err instanceof AuthError) throw err;
      if (err instanceof joseErrors.JWTExpired) {
        const exp = Number((err.payload as { exp?: number }).exp ?? 0);
        const ago = Math.max(0, Math.floor(Date.now() / 1000) - exp);
        throw new AuthError(`InvalidJWTToken: Token has expired ${ago} seconds ago`);
      }
      throw new AuthError("InvalidJWTToken: the token's signature or format is invalid");
    }
  }

  private armExpiry(sub: Sub, exp: number | undefined) {
    clearTimeout(sub.expiry);
    sub.expiry = undefined;
    if (!exp) return;
    const ms = Math.min(MAX_TIMER_MS, Math.max(0, exp * 1000 - Date.now()));
    sub.expiry = setTimeout(() => {
      this.closeSub(sub, "Token has expired 0 seconds ago");
    }, ms);
    sub.expiry.unref();
  }

  /** Tells the client why (a `system` error) and closes its channel, as Supabase does. */
  private closeSub(sub: Sub, message: string) {
    this.opts.log(`realtime: closing ${sub.topic} on socket #${sub.client.id}: ${message}`);
    this.send(sub.client, {
      join_ref: sub.joinRef,
      ref: null,
      topic: sub.topic,
      event: "system",
      payload: { extension: "system", status: "error", message, channel: sub.subTopic },
    });
    this.send(sub.client, {
      join_ref: sub.joinRef,
      ref: null,
      topic: sub.topic,
      event: "phx_close",
      payload: {},
    });
    this.removeSub(sub);
  }

  // ---------------------------------------------------------------------------------------------
  // Channels
  // ---------------------------------------------------------------------------------------------

  /**
   * A leave drops the topic's joins still being authorised: the one with the leave's join_ref
   * (realtime-js leaves a channel whose join timed out before joining it again), or all of them
   * when the leave names none. Nothing is answered to them.
   */
  private leavePending(client: Client, f: Frame) {
    for (const pending of client.pending.get(f.topic) ?? []) {
      if (f.join_ref == null || pending.joinRef === f.join_ref) pending.left = true;
    }
  }

  private async join(client: Client, f: Frame) {
    const receivedAt = performance.now();
    const pending: PendingJoin = { joinRef: f.join_ref ?? f.ref, left: false };
    let set = client.pending.get(f.topic);
    if (!set) client.pending.set(f.topic, (set = new Set()));
    set.add(pending);
    try {
      await this.joinPending(client, f, pending, receivedAt);
    } finally {
      set.delete(pending);
      if (set.size === 0 && client.pending.get(f.topic) === set) client.pending.delete(f.topic);
    }
  }

  private async joinPending(client: Client, f: Frame, pending: PendingJoin, receivedAt: number) {
    const subTopic = f.topic.startsWith("realtime:") ? f.topic.slice("realtime:".length) : f.topic;
    const config = isRecord(f.payload.config) ? f.payload.config : {};
    const broadcast = isRecord(config.broadcast) ? config.broadcast : {};
    const presence = isRecord(config.presence) ? config.presence : {};
    const isPrivate = config.private === true;
    const refuse = (reason: string) => {
      this.opts.log(`realtime: refused join of ${f.topic} on socket #${client.id}: ${reason}`);
      this.reply(client, f, "error", { reason });
    };

    if (!subTopic) return refuse("The channel topic is empty");
    if (Array.isArray(config.postgres_changes) && config.postgres_changes.length > 0) {
      return refuse(
        "postgres_changes is not available on the local stack; use Broadcast from Database",
      );
    }
    const previous = client.channels.get(f.topic);
    if (!previous && client.channels.size >= this.maxChannels) {
      return refuse("ChannelRateLimitReached: Too many channels");
    }
    if (!this.allowJoin(client)) {
      return refuse("ClientJoinRateLimitReached: Too many joins per second");
    }

    let identity: { who: Identity; exp?: number };
    try {
      identity = await this.identify(f.payload.access_token, client.apiIdentity);
    } catch (err) {
      return refuse((err as Error).message);
    }
    let perms = ALL_ALLOWED;
    if (isPrivate) {
      const verdict = await this.authorize(
        subTopic,
        identity.who,
        () => !pending.left && this.clients.has(client) && client.ws.readyState === WebSocket.OPEN,
      );
      perms = verdict.perms;
      const took = performance.now() - receivedAt;
      if (took > this.slowJoinLogMs) {
        const ms = (n: number) => `${Math.round(n)} ms`;
        this.opts.log(
          `realtime: slow join of ${f.topic} on socket #${client.id}: answered after ${ms(took)}; ` +
            `waited ${ms(verdict.queuedMs)} for a slot behind ${verdict.ahead} check(s), ` +
            `${ms(verdict.dbWaitMs)} for the database, the check ran ${ms(verdict.checkMs)}`,
        );
      }
      if (pending.left) return;
    }
    if (!perms.read.broadcast && !perms.read.presence) {
      return refuse(
        `Unauthorized: You do not have permissions to read from this Channel topic: ${subTopic}`,
      );
    }
    if (client.ws.readyState !== WebSocket.OPEN || !this.clients.has(client)) return;

    // A second join of the same topic replaces the first, as in Phoenix.
    const again = client.channels.get(f.topic);
    if (again) this.removeSub(again);

    const key = `${isPrivate ? "private" : "public"}:${subTopic}`;
    const sub: Sub = {
      client,
      topic: f.topic,
      subTopic,
      key,
      joinRef: f.join_ref ?? f.ref,
      isPrivate,
      self: broadcast.self === true,
      ack: broadcast.ack === true,
      presenceKey:
        typeof presence.key === "string" && presence.key !== "" ? presence.key : randomUUID(),
      identity: identity.who,
      perms,
    };
    client.channels.set(f.topic, sub);
    let set = this.topics.get(key);
    if (!set) this.topics.set(key, (set = new Set()));
    set.add(sub);
    this.armExpiry(sub, identity.exp);
    this.reply(client, f, "ok", { postgres_changes: [] });
    if (perms.read.presence) {
      this.send(client, {
        join_ref: sub.joinRef,
        ref: null,
        topic: sub.topic,
        event: "presence_state",
        payload: this.presenceState(key),
      });
    }
  }

  private removeSub(sub: Sub) {
    clearTimeout(sub.expiry);
    if (sub.client.channels.get(sub.topic) === sub) sub.client.channels.delete(sub.topic);
    const set = this.topics.get(sub.key);
    if (set?.delete(sub) && set.size === 0) this.topics.delete(sub.key);
    this.untrack(sub);
  }

  private async refreshToken(sub: Sub, token: unknown) {
    // The channel may be left while the token is being checked; then there is nothing to update.
    const active = () => sub.client.channels.get(sub.topic) === sub;
    let identity: { who: Identity; exp?: number };
    try {
      identity = await this.identify(token, sub.client.apiIdentity);
    } catch (err) {
      if (active()) this.closeSub(sub, (err as Error).message);
      return;
    }
    if (sub.isPrivate) {
      const { perms } = await this.authorize(sub.subTopic, identity.who);
      if (!active()) return;
      if (!perms.read.broadcast && !perms.read.presence) {
        return this.closeSub(
          sub,
          `Unauthorized: You do not have permissions to read from this Channel topic: ${sub.subTopic}`,
        );
      }
      sub.perms = perms;
    }
    if (!active()) return;
    sub.identity = identity.who;
    this.armExpiry(sub, identity.exp);
  }

  // ---------------------------------------------------------------------------------------------
  // Broadcast
  // ---------------------------------------------------------------------------------------------

  private clientBroadcast(sub: Sub, f: Frame) {
    const event = f.payload.event;
    if (typeof event !== "string" || event === "") {
      this.opts.log(`realtime: broadcast without an event name on ${sub.topic}`);
      this.reply(sub.client, f, "error", { reason: "A broadcast needs an event name" });
      return;
    }
    if (!sub.perms.write.broadcast) {
      this.opts.log(`realtime: refused a broadcast on ${sub.topic}: no write permission`);
      this.reply(sub.client, f, "error", {
        reason: `Unauthorized: You do not have permissions to write to this Channel topic: ${sub.subTopic}`,
      });
      return;
    }
    const meta = isRecord(f.payload.meta) ? f.payload.meta : undefined;
    this.fanOut(sub.key, event, f.payload.payload ?? {}, meta, sub.self ? undefined : sub);
    if (sub.ack) this.reply(sub.client, f, "ok");
  }

  /** Sends one broadcast to every channel of a topic, encoding it once per protocol version. */
  fanOut(
    key: string,
    event: string,
    payload: unknown,
    meta?: Record<string, unknown>,
    except?: Sub,
  ) {
    const set = this.topics.get(key);
    if (!set || set.size === 0) return 0;
    const topic = `realtime:${key.slice(key.indexOf(":") + 1)}`;
    const binaryPayload = payload instanceof ArrayBuffer;
    let v2: Buffer | string | undefined;
    let v1: string | undefined;
    let delivered = 0;
    for (const sub of set) {
      if (sub === except || !sub.perms.read.broadcast) continue;
      const ws = sub.client.ws;
      if (ws.readyState !== WebSocket.OPEN) continue;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
        this.opts.log(`realtime: socket #${sub.client.id} is not reading; dropped a broadcast`);
        continue;
      }
      if (sub.client.vsn === "2.0.0") {
        if (v2 === undefined) {
          try {
            v2 = encodeUserBroadcast(topic, event, payload, meta);
          } catch {
            v2 = encodeFrame(
              {
                join_ref: null,
                ref: null,
                topic,
                event: "broadcast",
                payload: { type: "broadcast", event, payload, meta },
              },
              "2.0.0",
            );
          }
        }
        ws.send(v2);
      } else {
        if (binaryPayload) continue;
        v1 ??= encodeFrame(
          {
            join_ref: null,
            ref: null,
            topic,
            event: "broadcast",
            payload: { type: "broadcast", event, payload, ...(meta ? { meta } : {}) },
          },
          "1.0.0",
        );
        ws.send(v1);
      }
      delivered++;
    }
    return delivered;
  }

  private onNotify(id: string) {
    // One at a time, so subscribers see database broadcasts in commit order.
    this.dbQueue = this.dbQueue.then(async () => {
      if (this.stopped) return;
      try {
        const rows = await this.opts.db.query<{
          topic: string;
          event: string | null;
          payload: unknown;
          private: boolean | null;
        }>(`select topic, event, payload, private from realtime.messages where id = $1::uuid`, [
          id,
        ]);
        const row = rows[0];
        if (!row) return;
        if (row.topic === AUTHORIZATION_TOPIC && row.event === AUTHORIZATION_EVENT) {
          const userId = isRecord(row.payload) ? row.payload.user_id : undefined;
          if (typeof userId === "string") await this.reauthorizeUser(userId);
          return;
        }
        const key = `${row.private === false ? "public" : "private"}:${row.topic}`;
        this.fanOut(key, row.event ?? "broadcast", row.payload ?? {}, { id });
      } catch (err) {
        this.opts.log(
          `realtime: could not deliver database broadcast ${id}: ${(err as Error).message}`,
        );
      }
    });
  }

  /**
   * Runs the join check again for every private channel a user holds open and closes those
   * now refused, as a refused access_token refresh does. Runs in the database-broadcast queue,
   * so a broadcast committed after the change never reaches a channel that lost access.
   */
  private async reauthorizeUser(userId: string) {
    const subs: Sub[] = [];
    for (const client of this.clients) {
      for (const sub of client.channels.values()) {
        if (sub.isPrivate && sub.identity.claims.sub === userId) subs.push(sub);
      }
    }
    for (const sub of subs) {
      const active = () => sub.client.channels.get(sub.topic) === sub;
      if (!active()) continue;
      const { perms } = await this.authorize(sub.subTopic, sub.identity);
      if (!active()) continue;
      if (!perms.read.broadcast && !perms.read.presence) {
        this.closeSub(
          sub,
          `Unauthorized: You do not have permissions to read from this Channel topic: ${sub.subTopic}`,
        );
      } else {
        sub.perms = perms;
      }
    }
  }

  private async prune() {
    try {
      await this.opts.db.query(
        `delete from realtime.messages where inserted_at < now() - make_interval(secs => $1)`,
        [this.retentionMs / 1000],
      );
    } catch (err) {
      this.opts.log(`realtime: pruning old messages failed: ${(err as Error).message}`);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Presence
  // ---------------------------------------------------------------------------------------------

  private presenceState(key: string) {
    const state: Record<string, { metas: Record<string, unknown>[] }> = {};
    for (const [pkey, metas] of this.presence.get(key) ?? []) {
      state[pkey] = { metas: metas.map((m) => ({ ...m.meta, phx_ref: m.phx_ref })) };
    }
    return state;
  }

  private presenceDiff(key: string, joins: PresenceMeta[], leaves: PresenceMeta[]) {
    const group = (list: PresenceMeta[]) => {
      const out: Record<string, { metas: Record<string, unknown>[] }> = {};
      for (const m of list) {
        (out[m.sub.presenceKey] ??= { metas: [] }).metas.push({ ...m.meta, phx_ref: m.phx_ref });
      }
      return out;
    };
    const set = this.topics.get(key);
    if (!set) return;
    const payload = { joins: group(joins), leaves: group(leaves) };
    for (const sub of set) {
      if (!sub.perms.read.presence) continue;
      this.send(sub.client, {
        join_ref: null,
        ref: null,
        topic: sub.topic,
        event: "presence_diff",
        payload,
      });
    }
  }

  private untrack(sub: Sub): PresenceMeta[] {
    const byKey = this.presence.get(sub.key);
    const metas = byKey?.get(sub.presenceKey);
    if (!byKey || !metas) return [];
    const left = metas.filter((m) => m.sub === sub);
    if (left.length === 0) return [];
    const kept = metas.filter((m) => m.sub !== sub);
    if (kept.length) byKey.set(sub.presenceKey, kept);
    else byKey.delete(sub.presenceKey);
    if (byKey.size === 0) this.presence.delete(sub.key);
    this.presenceDiff(sub.key, [], left);
    return left;
  }

  private clientPresence(sub: Sub, f: Frame) {
    const kind = f.payload.event;
    if (kind !== "track" && kind !== "untrack") {
      this.reply(sub.client, f, "error", { reason: "presence events are track and untrack" });
      return;
    }
    if (!sub.perms.write.presence) {
      this.opts.log(`realtime: refused presence on ${sub.topic}: no write permission`);
      this.reply(sub.client, f, "error", {
        reason: `Unauthorized: You do not have permissions to track presence on this Channel topic: ${sub.subTopic}`,
      });
      return;
    }
    if (kind === "untrack") {
      this.untrack(sub);
      this.reply(sub.client, f, "ok");
      return;
    }
    const meta = isRecord(f.payload.payload) ? f.payload.payload : {};
    const byKey = this.presence.get(sub.key) ?? new Map<string, PresenceMeta[]>();
    this.presence.set(sub.key, byKey);
    const metas = byKey.get(sub.presenceKey) ?? [];
    const left = metas.filter((m) => m.sub === sub);
    const joined: PresenceMeta = { sub, phx_ref: randomUUID(), meta };
    byKey.set(sub.presenceKey, [...metas.filter((m) => m.sub !== sub), joined]);
    this.presenceDiff(sub.key, [joined], left);
    this.reply(sub.client, f, "ok");
  }

  // ---------------------------------------------------------------------------------------------
  // REST broadcast
  // ---------------------------------------------------------------------------------------------

  /** POST /realtime/v1/api/broadcast {messages: [{topic, event, payload, private}]}. */
  async fetch(req: Request): Promise<Response> {
    const { pathname } = new URL(req.url);
    if (req.method === "OPTIONS") return new Response(null, { status: 204 });
    if (pathname !== BROADCAST_PATH)
      return json(404, { message: `No Realtime endpoint at ${pathname}` });
    if (req.method !== "POST") return json(405, { message: "Use POST" });
    const apikey = req.headers.get("apikey") ?? "";
    let fallback: Identity;
    if (apikey === this.opts.publishableKey) fallback = { role: "anon", claims: { role: "anon" } };
    else if (apikey === this.opts.secretKey)
      fallback = { role: "service_role", claims: { role: "service_role" } };
    else return json(401, { message: "Invalid API key" });
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.get("authorization") ?? "")?.[1]?.trim();
    let who: Identity;
    try {
      who = (await this.identify(bearer, fallback)).who;
    } catch (err) {
      return json(401, { message: (err as Error).message });
    }
    let body: unknown;
    try {
      body = await req.json();
    } catch {
      return json(400, { message: "The body must be JSON: {messages: [{topic, event, payload}]}" });
    }
    const messages = isRecord(body) && Array.isArray(body.messages) ? body.messages : null;
    if (!messages || messages.length === 0 || messages.length > 100) {
      return json(400, { message: "Send between 1 and 100 messages as {messages: [...]}" });
    }
    const valid: { topic: string; event: string; payload: unknown; isPrivate: boolean }[] = [];
    for (const m of messages) {
      if (
        !isRecord(m) ||
        typeof m.topic !== "string" ||
        !m.topic ||
        typeof m.event !== "string" ||
        !m.event
      ) {
        return json(400, { message: "Every message needs a topic and an event" });
      }
      valid.push({
        topic: m.topic,
        event: m.event,
        payload: m.payload ?? {},
        isPrivate: m.private === true,
      });
    }
    for (const m of valid) {
      if (!m.isPrivate) continue;
      const { perms } = await this.authorize(m.topic, who);
      if (!perms.write.broadcast) {
        return json(403, {
          message: `You do not have permissions to write to this Channel topic: ${m.topic}`,
        });
      }
    }
    for (const m of valid) {
      this.fanOut(`${m.isPrivate ? "private" : "public"}:${m.topic}`, m.event, m.payload);
    }
    return json(202, {});
  }
}
