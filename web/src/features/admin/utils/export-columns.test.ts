import { afterEach, describe, expect, it, vi } from "vitest";
import { i18n } from "@/i18n/i18n";
import { exportRows } from "@/lib/csv";
import type { ActivityLog, AdminUserRow, ReportRow } from "../api/queries";
import { activityLogExportColumns, reportExportColumns, userExportColumns } from "./export-columns";

const user = (overrides: Partial<AdminUserRow>): AdminUserRow => ({
  id: "u1",
  email: "ada@example.com",
  username: "ada",
  role: "user",
  plan: "pro",
  subscription_active: true,
  banned: false,
  banned_reason: "",
  created_at: "2026-11-01T10:00:00Z",
  last_activity_at: "2026-11-25T08:30:00Z",
  total_count: 2,
  ...overrides,
});

const report = (overrides: Partial<ReportRow>): ReportRow => ({
  id: "r1",
  created_at: "2026-11-20T12:00:00Z",
  description: "",
  group_id: "g1",
  group_name: "Whales",
  message_content: "buy now",
  message_deleted: false,
  message_id: "m1",
  reason: "spam",
  reported_banned: false,
  reported_email: "spam@example.com",
  reported_id: "u2",
  reported_role: "user",
  reporter_email: "ada@example.com",
  reporter_id: "u1",
  reviewed_at: null as unknown as string,
  status: "open",
  ...overrides,
});

/** Runs the shared export and returns the file it offered: its name and text. */
async function exported<T>(
  format: "csv" | "json",
  base: string,
  columns: Parameters<typeof exportRows<T>>[2],
  rows: T[],
) {
  let blob: Blob | null = null;
  vi.spyOn(URL, "createObjectURL").mockImplementation((b) => {
    blob = b as Blob;
    return "blob:test";
  });
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
  let name = "";
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    name = this.download;
  });
  exportRows(format, base, columns, rows, {
    header: "Exported at",
    value: "26 Nov 2026, 00:40:00",
    fileStamp: "2026-11-26T00-40-00",
  });
  return { name, text: await (blob as unknown as Blob).text() };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the admin users export", () => {
  it("writes a header row, the rows in the reader's words and the export time", async () => {
    const t = i18n.getFixedT("en", "admin");
    const file = await exported("csv", "users", userExportColumns(t, "en"), [
      user({}),
      user({
        email: '=HYPERLINK("http://evil")@x.com',
        username: "+cmd",
        plan: "basic",
        subscription_active: false,
        banned: true,
        banned_reason: "Spam, again",
        last_activity_at: null as unknown as string,
      }),
    ]);
    expect(file.name).toBe("users-2026-11-26T00-40-00.csv");
    const lines = file.text.split("\r\n");
    expect(lines[0]).toBe(
      "Email,Username,Role,Plan,Subscription,Status,Ban reason,Created,Last activity,Exported at",
    );
    expect(lines[1]).toBe(
      'ada@example.com,ada,User,Pro,Active,Active,,"Nov 1, 2026, 10:00 AM","Nov 25, 2026, 8:30 AM","26 Nov 2026, 00:40:00"',
    );
    // Formula injection is made inert; a comma is quoted.
    expect(lines[2]).toBe(
      `"'=HYPERLINK(""http://evil"")@x.com",'+cmd,User,Basic,Inactive,Banned,"Spam, again","Nov 1, 2026, 10:00 AM",,"26 Nov 2026, 00:40:00"`,
    );
    expect(lines).toHaveLength(4);
  });

  it("names the columns in German", () => {
    const t = i18n.getFixedT("de", "admin");
    expect(userExportColumns(t, "de").map((column) => column.header)).toEqual([
      "E-Mail",
      "Benutzername",
      "Rolle",
      "Tarif",
      "Abonnement",
      "Status",
      "Sperrgrund",
      "Erstellt",
      "Letzte Aktivität",
    ]);
  });
});

describe("the admin reports export", () => {
  it("writes one row per report, a deleted message named as such, as CSV and JSON", async () => {
    const t = i18n.getFixedT("en", "admin");
    const rows = [
      report({}),
      report({
        id: "r2",
        reason: "harassment",
        status: "resolved",
        message_deleted: true,
        description: "@SUM(1+1)",
        reviewed_at: "2026-11-21T09:15:00Z",
      }),
    ];
    const csv = await exported("csv", "reports", reportExportColumns(t, "en"), rows);
    const lines = csv.text.split("\r\n");
    expect(lines[0]).toBe(
      "Reported at,Reason,Status,Reporter,Reported user,Group,Message,Description,Reviewed at,Exported at",
    );
    expect(lines[1]).toBe(
      '"Nov 20, 2026, 12:00 PM",Spam,Open,ada@example.com,spam@example.com,Whales,buy now,,,"26 Nov 2026, 00:40:00"',
    );
    expect(lines[2]).toBe(
      `"Nov 20, 2026, 12:00 PM",Harassment,Resolved,ada@example.com,spam@example.com,Whales,Reported message (deleted),'@SUM(1+1),"Nov 21, 2026, 9:15 AM","26 Nov 2026, 00:40:00"`,
    );

    const json = await exported("json", "reports", reportExportColumns(t, "en"), rows);
    expect(json.name).toBe("reports-2026-11-26T00-40-00.json");
    const objects = JSON.parse(json.text) as Record<string, unknown>[];
    expect(objects).toHaveLength(2);
    expect(objects[1]).toMatchObject({
      Reason: "Harassment",
      Description: "@SUM(1+1)",
      "Exported at": "26 Nov 2026, 00:40:00",
    });
  });
});

const log = (overrides: Partial<ActivityLog>): ActivityLog => ({
  id: "l1",
  action: "ban_user",
  admin_email: "admin@demo.local",
  admin_id: "a1",
  created_at: "2026-11-25T08:30:00Z",
  details: "reason: spam, again",
  ip_address: "127.0.0.1",
  target_user_email: "spam@example.com",
  target_user_id: "u2",
  ...overrides,
});

describe("the activity log export", () => {
  const labels: Record<string, string> = { ban_user: "Ban user", set_plan: "Set plan" };
  const rows = [
    log({}),
    log({
      id: "l2",
      action: "set_plan",
      details: "=cmd|' /C calc'!A0",
      ip_address: null as unknown as string,
      target_user_email: null as unknown as string,
    }),
  ];

  it("writes valid JSON with typed values: strings, and null where a value is missing", async () => {
    const t = i18n.getFixedT("en", "admin");
    const columns = activityLogExportColumns(t, "en", (action) => labels[action] ?? action);
    const file = await exported("json", "activity-logs", columns, rows);
    expect(file.name).toBe("activity-logs-2026-11-26T00-40-00.json");
    const parsed = JSON.parse(file.text) as unknown;
    expect(Array.isArray(parsed)).toBe(true);
    expect(parsed).toEqual([
      {
        Time: "Nov 25, 2026, 8:30 AM",
        Action: "Ban user",
        "Action code": "ban_user",
        Admin: "admin@demo.local",
        "Target User": "spam@example.com",
        Details: "reason: spam, again",
        "IP address": "127.0.0.1",
        "Exported at": "26 Nov 2026, 00:40:00",
      },
      {
        Time: "Nov 25, 2026, 8:30 AM",
        Action: "Set plan",
        "Action code": "set_plan",
        Admin: "admin@demo.local",
        "Target User": null,
        // JSON is no spreadsheet: the text stays as it was logged.
        Details: "=cmd|' /C calc'!A0",
        "IP address": null,
        "Exported at": "26 Nov 2026, 00:40:00",
      },
    ]);
  });

  it("writes the same columns as CSV, with formulas made inert", async () => {
    const t = i18n.getFixedT("de", "admin");
    const columns = activityLogExportColumns(t, "de", (action) => action);
    const file = await exported("csv", "activity-logs", columns, rows);
    const lines = file.text.split("\r\n");
    expect(lines[0]).toBe(
      "Zeit,Aktion,Aktionscode,Admin,Betroffener Benutzer,Details,IP-Adresse,Exported at",
    );
    expect(lines[2]).toContain(",set_plan,set_plan,admin@demo.local,,'=cmd|' /C calc'!A0,,");
    expect(lines).toHaveLength(4);
  });
});
