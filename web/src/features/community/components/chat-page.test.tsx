import { act, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/testing/render";
import { supabaseMock, TEST_USER_ID } from "@/testing/supabase-mock";
import { ChatPage } from "./chat-page";

const GROUP = "5b1e2f3a-4c5d-4e6f-8a7b-9c0d1e2f3a4b";
const BOB = "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const MALLORY = "8b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e";

const message = (id: string, sender: string, content: string, extra: object = {}) => ({
  id,
  group_id: GROUP,
  sender_id: sender,
  content,
  attachment_type: "none",
  attachment_url: null,
  created_at: "2026-01-01T10:00:00+00:00",
  updated_at: "2026-01-01T10:00:00+00:00",
  sender_name: null,
  sender_avatar_url: null,
  sender_plan: null,
  ...extra,
});

type RpcResult = Parameters<typeof supabaseMock.setRpc>[1];

function setup(history?: RpcResult) {
  supabaseMock.signInWithProfile("ada@example.com", { username: "ada" });
  supabaseMock.setRpc("list_groups", {
    data: [
      {
        id: GROUP,
        name: "Momentum",
        description: null,
        is_public: true,
        created_at: "2026-01-01T00:00:00Z",
        member_count: 3,
        my_role: "member",
        invite_code: "11111111-2222-4333-8444-555555555555",
      },
    ],
    error: null,
  });
  supabaseMock.setRpc("blocked_users", {
    data: [{ blocked_id: MALLORY, name: "mallory", avatar_url: null, created_at: "2026-01-01" }],
    error: null,
  });
  supabaseMock.setRpc("group_member_profiles", {
    data: [
      {
        user_id: TEST_USER_ID,
        role: "member",
        joined_at: "",
        name: "ada",
        avatar_url: null,
        plan: "none",
      },
      {
        user_id: BOB,
        role: "admin",
        joined_at: "",
        name: "bob",
        avatar_url: null,
        plan: "enterprise",
      },
    ],
    error: null,
  });
  supabaseMock.setRpc(
    "group_messages",
    history ?? {
      data: [
        message("c3", MALLORY, "buy my course", {
          sender_name: "mallory",
          created_at: "2026-01-01T10:02:00+00:00",
          updated_at: "2026-01-01T10:02:00+00:00",
        }),
        message("c2", BOB, "to the moon", {
          sender_name: "bob",
          sender_plan: "pro",
          created_at: "2026-01-01T10:01:00+00:00",
          updated_at: "2026-01-01T10:05:00+00:00",
        }),
        message("c1", TEST_USER_ID, "gm", { sender_name: "ada" }),
      ],
      error: null,
    },
  );
  return renderWithProviders(<ChatPage />, { route: `/community/chat?groupId=${GROUP}` });
}

afterEach(() => supabaseMock.reset());

describe("ChatPage", () => {
  it("without a group says so and links to the groups", () => {
    renderWithProviders(<ChatPage />, { route: "/community/chat" });
    expect(screen.getByText("No group selected")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Groups" })).toHaveAttribute(
      "href",
      "/community/groups",
    );
  });

  it("shows the history oldest first with names, plan badges and (edited), without blocked senders", async () => {
    setup();
    const items = await screen.findAllByTestId("chat-message");
    expect(items.map((item) => within(item).getByTestId("chat-content").textContent)).toEqual([
      "gm",
      "to the moon",
    ]);
    const bob = items[1]!;
    expect(within(bob).getByTestId("chat-sender")).toHaveTextContent("bob");
    expect(within(bob).getByText("Pro")).toBeInTheDocument();
    expect(within(bob).getByTestId("chat-edited")).toHaveTextContent("(edited)");
    expect(within(items[0]!).queryByTestId("chat-edited")).toBeNull();
    expect(screen.queryByText("buy my course")).toBeNull();
    expect(screen.getByText("Momentum")).toBeInTheDocument();
  });

  it("merges live inserts, edits and deletes, and skips blocked senders' new messages", async () => {
    setup();
    await screen.findByText("to the moon");
    const channel = supabaseMock.lastChannel(`group:${GROUP}`);
    const change = (operation: string, record: unknown, old_record: unknown = null) => ({
      schema: "public",
      table: "messages",
      operation,
      record,
      old_record,
    });
    const live = message("c4", BOB, "fresh news", {
      created_at: "2026-01-01T10:03:00+00:00",
      updated_at: "2026-01-01T10:03:00+00:00",
    });
    delete (live as Record<string, unknown>).sender_name;
    await act(async () => {
      channel.broadcast("INSERT", change("INSERT", live));
      channel.broadcast("INSERT", change("INSERT", live));
      channel.broadcast("INSERT", change("INSERT", message("c5", MALLORY, "spam again")));
    });
    const fresh = await screen.findAllByText("fresh news");
    expect(fresh).toHaveLength(1);
    // The sender's face comes from the member list.
    const item = fresh[0]!.closest("li")!;
    expect(within(item).getByTestId("chat-sender")).toHaveTextContent("bob");
    expect(within(item).getByText("Enterprise")).toBeInTheDocument();
    expect(screen.queryByText("spam again")).toBeNull();

    await act(async () => {
      channel.broadcast(
        "UPDATE",
        change("UPDATE", {
          ...live,
          content: "fresher news",
          updated_at: "2026-01-01T10:04:00+00:00",
        }),
      );
      channel.broadcast("DELETE", change("DELETE", null, { id: "c2" }));
    });
    expect(await screen.findByText("fresher news")).toBeInTheDocument();
    expect(screen.queryByText("to the moon")).toBeNull();
  });

  it("refuses a file that is not a GIF before uploading it", async () => {
    setup();
    await screen.findByText("to the moon");
    const input = screen.getByTestId("gif-input");
    fireEvent.change(input, {
      target: { files: [new File(["hello"], "notes.txt", { type: "text/plain" })] },
    });
    expect(await screen.findByText("Only GIF files are allowed")).toBeInTheDocument();
    expect(screen.getByText("Invalid file")).toBeInTheDocument();
    expect(supabaseMock.client.functions.invoke).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
  });

  it("shows an uploaded GIF as a preview that can be removed", async () => {
    setup();
    await screen.findByText("to the moon");
    supabaseMock.setFunction("chat-gif", {
      data: { attachmentUrl: "https://media.example.test/dot.gif" },
      error: null,
    });
    fireEvent.change(screen.getByTestId("gif-input"), {
      target: { files: [new File(["GIF89a"], "dot.gif", { type: "image/gif" })] },
    });
    expect(await screen.findByText("GIF ready to send!")).toBeInTheDocument();
    const preview = screen.getByTestId("gif-preview");
    expect(within(preview).getByRole("img")).toHaveAttribute(
      "src",
      "https://media.example.test/dot.gif",
    );
    expect(screen.getByRole("button", { name: "Upload GIF" })).toBeDisabled();
    fireEvent.click(screen.getByRole("button", { name: "Remove GIF" }));
    expect(screen.queryByTestId("gif-preview")).toBeNull();
    expect(screen.getByRole("button", { name: "Upload GIF" })).toBeEnabled();
  });

  it("pages back through the history without duplicates", async () => {
    const rows = Array.from({ length: 60 }, (_, i) =>
      message(`m${String(i).padStart(2, "0")}`, BOB, `message ${i}`, {
        sender_name: "bob",
        // Pairs share a timestamp: the order must come from the id.
        created_at: `2026-01-01T10:${String(Math.floor(i / 2)).padStart(2, "0")}:00+00:00`,
        updated_at: `2026-01-01T10:${String(Math.floor(i / 2)).padStart(2, "0")}:00+00:00`,
      }),
    ).reverse();
    const pages: unknown[] = [];
    setup((args) => {
      pages.push(args);
      const { p_before_id, p_limit } = args as { p_before_id?: string; p_limit: number };
      const start = p_before_id ? rows.findIndex((r) => r.id === p_before_id) + 1 : 0;
      return { data: rows.slice(start, start + p_limit), error: null };
    });
    await screen.findByText("message 59");
    expect(screen.getAllByTestId("chat-message")).toHaveLength(50);
    expect(screen.queryByText("message 9")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Loading older messages..." }));
    await screen.findByText("message 0");
    const shown = screen
      .getAllByTestId("chat-content")
      .map((node) => Number(node.textContent!.replace("message ", "")));
    expect(shown).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(pages).toEqual([
      { p_group_id: GROUP, p_limit: 50 },
      {
        p_group_id: GROUP,
        p_limit: 50,
        p_before_created_at: "2026-01-01T10:05:00+00:00",
        p_before_id: "m10",
      },
    ]);
    expect(
      await screen.findByText("This is the beginning of the conversation."),
    ).toBeInTheDocument();
  });

  it("shows a message at once, marks it failed when the send fails, and retries it", async () => {
    setup();
    await screen.findByText("to the moon");
    let attempts = 0;
    const stored = (id: string) => message(id, TEST_USER_ID, "hello there");
    const from = supabaseMock.client.from.getMockImplementation()!;
    vi.spyOn(supabaseMock.client, "from").mockImplementation(((table: string) => {
      if (table !== "messages") return from(table);
      return {
        insert: (values: { id: string }) => ({
          select: () => ({
            single: async () => {
              attempts += 1;
              return attempts === 1
                ? { data: null, error: { message: "network down", code: "" }, status: 0 }
                : { data: stored(values.id), error: null, status: 201 };
            },
          }),
        }),
      };
    }) as never);

    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "hello there" } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(screen.getByText("hello there")).toBeInTheDocument();
    expect(await screen.findByTestId("chat-failed")).toHaveTextContent("Not sent: network down");
    expect(screen.getByText("Send failed")).toBeInTheDocument();

    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    await vi.waitFor(() => expect(attempts).toBe(2));
    await vi.waitFor(() => expect(screen.queryByText("Sending...")).toBeNull());
    expect(screen.queryByTestId("chat-failed")).toBeNull();
    expect(screen.getAllByText("hello there")).toHaveLength(1);
  });
});
