// The zod schemas of the /api layer: what the routes validate (request bodies and queries) and
// what they answer (responses). The OpenAPI document (/api/openapi.json) is generated from
// these same schemas, and the contract tests check answers against them.
import { z } from "zod";
import { PAID_PLAN_IDS, PLAN_IDS } from "../_shared/domain/plans.ts";
import { MOVER_FLAGS } from "../_shared/domain/realtime.ts";

const ts = z.string().describe("ISO 8601 timestamp");
const id = z.string().describe("UUID");

// ---------------------------------------------------------------------------------------------
// Requests (specification section 5)
// ---------------------------------------------------------------------------------------------

const email = z.string().trim().email("Invalid email address");

export const loginInput = z.object({
  email,
  password: z.string().min(1, "Password is required"),
});

export const registerInput = z.object({
  email,
  password: z.string().min(8, "Password must be at least 8 characters").max(72),
});

export const EXCHANGE_FILTERS = ["coinbase", "dex", "cex-major"] as const;

export const settingsInput = z
  .object({
    selectedWindowMinutes: z.number().int("selectedWindowMinutes must be a whole number.")
      .min(0).max(30),
    userThreshold: z.number().min(1, "userThreshold must be 1 to 100.")
      .max(100, "userThreshold must be 1 to 100."),
    emailAlert: z.union([
      z.literal(""),
      z.null(),
      z.string().trim().email("Invalid email address"),
    ]),
    selectedExchanges: z.array(z.enum(EXCHANGE_FILTERS)).max(3),
    discordWebhookUrl: z.union([z.literal(""), z.null(), z.string().url().max(300)]),
    telegramChatId: z.union([z.literal(""), z.null(), z.string().max(40)]),
  })
  .partial()
  .strict();

export const USERNAME_RULE = "Username can only contain letters, numbers and underscores";
export const username = z
  .string()
  .min(3, "Username must be 3 to 30 characters.")
  .max(30, "Username must be 3 to 30 characters.")
  .regex(/^[A-Za-z0-9_]+$/, USERNAME_RULE);

export const profileInput = z.object({ username }).strict();

export const checkoutInput = z.object({ plan: z.enum(PAID_PLAN_IDS) });

export const groupInput = z.object({
  name: z.string().refine((s) => s.trim().length >= 3 && s.trim().length <= 50, {
    message: "The group name must be 3 to 50 characters.",
  }),
  description: z.string().max(200, "The description is at most 200 characters.").nullish(),
  isPublic: z.boolean().default(true),
});

const content2000 = z
  .string()
  .min(1, "The message must not be empty.")
  .max(2000, "The message is at most 2000 characters.")
  .refine((s) => s.trim().length > 0, { message: "The message must not be empty." });

export const messageInput = z.object({
  groupId: id.pipe(z.uuid("groupId must be a UUID.")),
  content: content2000,
  attachmentType: z.enum(["none", "gif"]).default("none"),
  attachmentUrl: z.string().url("attachmentUrl must be a URL.").max(2000).nullish(),
});

export const messageEditInput = z.object({ content: content2000 });

export const blockInput = z.object({ userId: z.uuid("userId must be a UUID.") });

export const TICKET_PRIORITIES = ["low", "medium", "high", "urgent"] as const;
export const TICKET_STATUSES = ["open", "in_progress", "resolved", "closed"] as const;

export const ticketInput = z.object({
  subject: z.string().refine((s) => s.trim().length >= 5 && s.trim().length <= 100, {
    message: "The subject must be 5 to 100 characters.",
  }),
  content: z.string().refine((s) => s.trim().length >= 10 && s.trim().length <= 2000, {
    message: "The details must be 10 to 2000 characters.",
  }),
  priority: z.enum(TICKET_PRIORITIES).default("medium"),
});

export const ticketReplyInput = z.object({ content: content2000 });
export const ticketStatusInput = z.object({ status: z.enum(TICKET_STATUSES) });

export const banInput = z.object({
  reason: z.string().refine((s) => s.trim().length >= 5 && s.trim().length <= 500, {
    message: "Ban reason must be at least 5 characters long.",
  }),
});
export const planInput = z.object({ plan: z.enum(PLAN_IDS) });
export const subscriptionInput = z.object({ subscriptionActive: z.boolean() });
export const promoteInput = z.object({
  secret: z.string().refine((s) => s.trim().length > 0, {
    message: "Please enter the admin secret",
  }),
});

export const groupQuery = z.object({
  groupId: z.uuid("groupId must be a UUID."),
  before: z.iso.datetime({ offset: true, message: "before must be an ISO timestamp." }).optional(),
  limit: z.string().regex(/^\d{1,3}$/, "limit must be 1 to 200.").transform(Number)
    .refine((n) => n >= 1 && n <= 200, "limit must be 1 to 200.").optional(),
});
export const ticketQuery = z.object({ ticketId: z.uuid("ticketId must be a UUID.") });

// ---------------------------------------------------------------------------------------------
// Responses (specification section 3, client-visible entities)
// ---------------------------------------------------------------------------------------------

export const plan = z.enum(PLAN_IDS);

export const currentUser = z.object({
  id,
  email: z.string().nullable(),
  username: z.string().nullable(),
  profilePicture: z.string().nullable(),
  role: z.enum(["user", "admin"]),
  plan,
  subscriptionActive: z.boolean(),
  banned: z.boolean(),
  selectedWindowMinutes: z.number(),
  userThreshold: z.number(),
  emailAlert: z.string().nullable(),
  selectedExchanges: z.array(z.string()),
  discordWebhookUrl: z.string().nullable(),
  telegramChatId: z.string().nullable(),
  createdAt: ts,
});

export const loginResult = z.object({ user: currentUser });
export const registerResult = z.object({
  user: z.object({ id, email: z.string().nullable() }),
  confirmationRequired: z.boolean(),
});
export const ok = z.object({ success: z.literal(true) });

export const profile = z.object({
  id,
  username: z.string().nullable(),
  profilePicture: z.string().nullable(),
  email: z.string().nullable(),
  plan,
  subscriptionActive: z.boolean(),
});

export const availability = z.object({ available: z.boolean(), message: z.string().optional() });
export const avatarResult = z.object({ avatarUrl: z.string() });
export const gifResult = z.object({ attachmentUrl: z.string() });
export const checkoutResult = z.object({ sessionUrl: z.string() });

export const group = z.object({
  id,
  name: z.string(),
  description: z.string().nullable(),
  isPublic: z.boolean(),
  createdBy: z.string().nullable(),
  createdAt: ts,
  role: z.enum(["admin", "member"]).nullable().describe(
    "The caller's role; null when not a member",
  ),
});
export const groupsResult = z.object({ userGroups: z.array(group), publicGroups: z.array(group) });

export const chatSender = z.object({
  id,
  username: z.string().nullable(),
  email: z.string().nullable().describe(
    "Only the caller's own e-mail (or every e-mail for admins)",
  ),
  profilePicture: z.string().nullable(),
  plan,
});
export const chatMessage = z.object({
  id,
  groupId: id,
  content: z.string(),
  createdAt: ts,
  updatedAt: ts,
  attachmentType: z.enum(["none", "gif"]),
  attachmentUrl: z.string().nullable(),
  sender: chatSender,
});
export const chatMessages = z.array(chatMessage);

export const ticket = z.object({
  id,
  ticketNumber: z.number(),
  userId: id,
  subject: z.string(),
  content: z.string(),
  priority: z.enum(TICKET_PRIORITIES),
  status: z.enum(TICKET_STATUSES),
  createdAt: ts,
  updatedAt: ts,
});
export const tickets = z.array(ticket);

export const ticketMessage = z.object({
  id,
  ticketId: id,
  content: z.string(),
  createdAt: ts,
  isAdminReply: z.boolean(),
  sender: z.object({
    id,
    username: z.string().nullable(),
    email: z.string().nullable(),
    profilePicture: z.string().nullable(),
  }),
});
export const ticketMessages = z.array(ticketMessage);

export const adminUser = z.object({
  id,
  email: z.string().nullable(),
  username: z.string().nullable(),
  role: z.enum(["user", "admin"]),
  plan,
  subscriptionActive: z.boolean(),
  banned: z.boolean(),
  bannedReason: z.string().nullable(),
  createdAt: ts,
  lastActivityAt: ts.nullable(),
});
export const adminUsers = z.array(adminUser);

export const adminStats = z.object({
  totalUsers: z.number(),
  activeSubscriptions: z.number().describe("Paying Stripe subscriptions"),
  onlineUsers: z.number(),
  recentSignups: z.number(),
  totalRevenue: z.number().describe("EUR per month, from paying Stripe subscriptions only"),
  bannedUsers: z.number(),
  complimentarySubscriptions: z.number().describe(
    "Users on a plan an admin switched on, without a paying subscription",
  ),
  adminPlans: z.number().describe("Admins on a plan (not revenue)"),
});

export const activityLog = z.object({
  id,
  action: z.string(),
  adminId: z.string().nullable(),
  targetUserId: z.string().nullable(),
  targetUserEmail: z.string().nullable(),
  details: z.string().nullable(),
  createdAt: ts,
});
export const activityLogs = z.array(activityLog);

export const alertRecord = z.object({
  id: z.union([z.string(), z.number()]),
  symbol: z.string(),
  exchange: z.string().nullable(),
  pct: z.number(),
  price: z.number().nullable(),
  recipient: z.string(),
  createdAt: ts,
  /** One record per delivered message (decision 0043): the symbols it lists, and how many crossed. */
  symbols: z.array(z.string()),
  symbolCount: z.number().int().min(1),
});
export const alertRecords = z.array(alertRecord);

export const liveVisitor = z.object({
  id,
  email: z.string().nullable(),
  plan,
  lastActivityAt: ts,
});
export const liveVisitors = z.array(liveVisitor);

export const promoteResult = z.object({
  success: z.literal(true),
  user: z.object({ id, role: z.literal("admin"), plan }),
});

export const gainer = z.object({
  id: z.number(),
  instrumentId: z.number(),
  symbol: z.string(),
  exchange: z.string(),
  exchangeType: z.enum(["cex", "dex"]),
  price: z.number(),
  pct: z.number(),
  ts: ts.describe("When the scan that wrote this entry ran (ISO 8601)"),
  quotedAt: ts.describe(
    "The quote's own time on the venue's clock (ISO 8601): when the venue last published this price (Binance's event, close or answer time, Coinbase's message or answer time, GeckoTerminal's answer time). It does not move while the price is unchanged; see confirmedAt for the data age.",
  ),
  confirmedAt: ts.describe(
    "The time through which the venue has confirmed this price (ISO 8601, venue clock): quotedAt, or later when the venue's stream has confirmed every symbol it did not name unchanged since (Binance's !miniTicker@arr names only the symbols that changed) and the venue's last full poll included this entry. It stops advancing when the venue or its stream stalls. The entry's data age is now minus confirmedAt; it is stale when that exceeds its window.",
  ),
  volume24hUsd: z.number().nullable().describe(
    "24 h quote volume in USD (CEX pairs) or the pool's 24 h volume in USD (DEX pools); null when the venue gives none.",
  ),
  liquidityUsd: z.number().nullable().describe(
    "The DEX pool's reserve (liquidity) in USD; null for CEX pairs.",
  ),
  spreadPct: z.number().nullable().describe(
    "(ask - bid) / mid × 100 where the venue gives a book ticker (Binance), else null.",
  ),
  thin: z.boolean().describe(
    "Below the floor of its venue type: under $250,000 of 24 h volume (CEX) or $100,000 of pool liquidity (DEX), or the figure is unknown.",
  ),
  confirmedOn: z.array(z.string()).describe(
    "The other venues (exchange names) where the same asset moved at least 2 % the same way in the window; a DEX move counts CEX venues only. Empty: unconfirmed.",
  ),
  flags: z.array(z.enum(MOVER_FLAGS)).describe(
    "Manipulation flags, empty when none. no_volume_rise: a move of 3 % or more whose 24 h volume did not rise within the window; young_pool: a DEX pool created less than 24 h ago; pulled_pool: pool liquidity fell by half or more within the window; dex_cex_gap: a DEX price more than 5 % from the asset's dollar-quoted CEX price; wash_volume: 24 h volume above 20 times the pool's liquidity. A flagged move ranks lower (its move counts half per flag) and is never hidden.",
  ),
  trustScore: z.number().int().min(0).max(100).describe(
    "0-100: 20, plus up to 50 for depth (12.5 per tenfold of liquidity (DEX) or 24 h volume (CEX) above $1,000), plus 15 per confirming venue (at most 2), minus 25 per flag, 20 when thin, 10 for a spread above 1 %.",
  ),
  asset: z.string().describe(
    "Grouping key: the base asset upper-cased, wrapped natives as their native (WBNB -> BNB, WETH -> ETH).",
  ),
  poolName: z.string().nullable().describe(
    'The DEX pool\'s own name with its fee tier ("SFP / WBNB 0.25%"); null for CEX pairs.',
  ),
}).passthrough();
export const gainers = z.array(gainer);
export const historyPoints = z.array(z.object({ ts, price: z.number() }));
export const signals = z.array(
  z.object({ id: z.union([z.number(), z.string()]), symbol: z.string() })
    .passthrough(),
);
export const analysis = z.object({
  symbol: z.string(),
  exchange: z.string(),
  enoughData: z.boolean(),
})
  .passthrough();

const avgAfter = z.object({
  avgPct: z.number().nullable().describe("Average change of the close that many hours later, %"),
  samples: z.number().describe("How many such moves had that candle"),
});

/** GET /api/gainers/candles/{symbol}: 5-minute (24 h), hourly (7 d) or 4-hour (30 d) candles. */
export const candles = z.array(
  z.object({
    ts: ts.describe("Start of the candle (ISO 8601)"),
    open: z.number(),
    high: z.number(),
    low: z.number(),
    close: z.number(),
    volume: z.number().nullable().describe("Estimated quote volume traded in the candle"),
  }),
);

/** GET /api/gainers/insights/{symbol}: the historical comparison and the analytics (0035). */
export const insights = z.object({
  instrumentId: z.number(),
  symbol: z.string(),
  exchange: z.string(),
  asOf: ts.nullable().describe("The newest 5-minute candle used"),
  move1hPct: z.number().nullable().describe("The last hour's move, %"),
  comparison: z.object({
    hours: z.number().describe("Hourly moves of the last 30 days compared against"),
    occurrences: z.number().describe(
      "How often it moved this much (same direction, at least as large)",
    ),
    after1h: avgAfter,
    after4h: avgAfter,
    after24h: avgAfter,
  }),
  percentile: z.number().nullable().describe(
    "Share of the 30 days' hourly moves smaller than this one, %",
  ),
  btcCorrelation: z.number().nullable().describe(
    "Pearson correlation of 5-minute returns with BTC over 24 h",
  ),
  btcCorrelationPairs: z.number(),
  btcInstrumentId: z.number().nullable().describe(
    "The BTC instrument the correlation was measured against; null when there is none",
  ),
  volatility: z.object({
    regime: z.enum(["calm", "normal", "wild"]).nullable(),
    stddev24hPct: z.number().nullable(),
    stddev30dPct: z.number().nullable(),
    samples24h: z.number(),
    samples30d: z.number(),
  }),
  drawdown: z.object({
    pct: z.number().describe(
      "Deepest fall below an earlier high over 24 h, % (negative; 0 when it only rose)",
    ),
    peakAt: ts.nullable(),
    troughAt: ts.nullable(),
  }),
});

/** GET /api/charts/compare: each symbol as % change from its first close. */
export const comparison = z.array(
  z.object({
    instrumentId: z.number(),
    symbol: z.string(),
    exchange: z.string(),
    points: z.array(z.object({ ts, pct: z.number() })),
  }),
);

/** The bodies of the admin actions on a user. */
export type AdminBody = typeof banInput | typeof planInput | typeof subscriptionInput;
