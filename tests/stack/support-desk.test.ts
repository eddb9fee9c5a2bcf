// The support desk through the official supabase-js and realtime-js against the local stack
// (decision 0022): an internal note never reaches the ticket's owner — not through REST, not on
// the ticket's thread topic, and the owner cannot join the notes or desk topics — while admins
// receive notes on ticket-notes:<id> and every ticket change on support:desk; canned replies are
// for admins only; the awaiting-an-admin flag follows the conversation.
import { afterEach, describe, expect, it } from "vitest";
import {
  SUPPORT_DESK_EVENT,
  SUPPORT_DESK_TOPIC,
  ticketNotesTopic,
  ticketTopic,
} from "../../supabase/functions/_shared/domain/realtime.ts";
import { anonClient, demoUser, signedInUser, type Client } from "../support/clients.ts";
import { join, sleep, waitFor, type Joined } from "../support/realtime.ts";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.removeAllChannels()));
});
function track<T extends { client: Client }>(u: T): T {
  clients.push(u.client);
  return u;
}

const refused = (j: Joined, topic: string) => {
  expect(j.status).toBe("CHANNEL_ERROR");
  expect(j.error).toBe(
    `Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`,
  );
};

async function openTicket(owner: { client: Client }) {
  const created = await owner.client
    .from("support_tickets")
    .insert({ subject: "Desk ticket", content: "Please look at my alerts." })
    .select("id, awaiting_admin")
    .single();
  expect(created.error).toBeNull();
  return created.data!;
}

describe("internal notes", () => {
  it("reach admins live and never the ticket's owner", async () => {
    const owner = track(await signedInUser());
    const admin = track(await demoUser("admin@demo.local"));
    const ticket = await openTicket(owner);

    const ownerThread = await join(owner.client, ticketTopic(ticket.id));
    expect(ownerThread.status).toBe("SUBSCRIBED");
    refused(await join(owner.client, ticketNotesTopic(ticket.id)), ticketNotesTopic(ticket.id));
    refused(await join(owner.client, SUPPORT_DESK_TOPIC), SUPPORT_DESK_TOPIC);
    const adminNotes = await join(admin.client, ticketNotesTopic(ticket.id));
    expect(adminNotes.status).toBe("SUBSCRIBED");

    const secret = `SECRET note ${Math.random().toString(36).slice(2)}`;
    const note = await admin.client
      .from("ticket_notes")
      .insert({ ticket_id: ticket.id, content: secret })
      .select("id, author_id")
      .single();
    expect(note.error).toBeNull();
    expect(note.data!.author_id).toBe(admin.user.id);

    const received = await waitFor(() => adminNotes.events.find((e) => e.event === "INSERT"));
    expect((received.payload.record as { content: string }).content).toBe(secret);

    // A reply right after the note: the owner's thread receives the reply, never the note.
    const reply = await admin.client
      .from("ticket_messages")
      .insert({ ticket_id: ticket.id, content: "We are on it." });
    expect(reply.error).toBeNull();
    await waitFor(() => ownerThread.events.find((e) => e.event === "INSERT"));
    await sleep(300);
    expect(JSON.stringify(ownerThread.events)).not.toContain(secret);

    // Every read path of the owner.
    const notes = await owner.client.from("ticket_notes").select("*");
    expect(notes.error).toBeNull();
    expect(notes.data).toEqual([]);
    const messages = await owner.client
      .from("ticket_messages")
      .select("*")
      .eq("ticket_id", ticket.id);
    expect(JSON.stringify(messages.data)).not.toContain(secret);
    const tickets = await owner.client.from("support_tickets").select("*").eq("id", ticket.id);
    expect(JSON.stringify(tickets.data)).not.toContain(secret);
    const forged = await owner.client
      .from("ticket_notes")
      .insert({ ticket_id: ticket.id, content: "owner note" });
    expect(forged.error?.code).toBe("42501");
  });
});

describe("support:desk and the awaiting flag", () => {
  it("announces new tickets, replies and status changes to admins, without content", async () => {
    const owner = track(await signedInUser());
    const admin = track(await demoUser("admin@demo.local"));
    const desk = await join(admin.client, SUPPORT_DESK_TOPIC);
    expect(desk.status).toBe("SUBSCRIBED");

    const ticket = await openTicket(owner);
    expect(ticket.awaiting_admin).toBe(true);
    const mine = (operation: string) =>
      desk.events.find(
        (e) =>
          e.event === SUPPORT_DESK_EVENT &&
          e.payload.ticket_id === ticket.id &&
          e.payload.operation === operation,
      );
    await waitFor(() => mine("INSERT"));

    const reply = await admin.client
      .from("ticket_messages")
      .insert({ ticket_id: ticket.id, content: "Answered." });
    expect(reply.error).toBeNull();
    await waitFor(() => mine("UPDATE"));
    const answered = await owner.client
      .from("support_tickets")
      .select("awaiting_admin")
      .eq("id", ticket.id)
      .single();
    expect(answered.data!.awaiting_admin).toBe(false);

    const status = await admin.client.rpc("admin_set_ticket_status", {
      ticket: ticket.id,
      new_status: "resolved",
    });
    expect(status.error).toBeNull();
    const again = await owner.client
      .from("ticket_messages")
      .insert({ ticket_id: ticket.id, content: "Not quite." });
    expect(again.error).toBeNull();
    const waiting = await owner.client
      .from("support_tickets")
      .select("awaiting_admin")
      .eq("id", ticket.id)
      .single();
    expect(waiting.data!.awaiting_admin).toBe(true);

    for (const e of desk.events)
      expect(Object.keys(e.payload).sort()).toEqual(["operation", "ticket_id"]);
    const flagged = await owner.client
      .from("support_tickets")
      .update({ awaiting_admin: false } as never)
      .eq("id", ticket.id);
    expect(flagged.error?.code).toBe("42501");
  });
});

describe("canned replies", () => {
  it("are saved and read by admins only", async () => {
    const user = track(await signedInUser());
    const admin = track(await demoUser("admin@demo.local"));
    // Ending in v: the rule's white space once held the letter v (decision 0113), so the title
    // and its capitals were two titles.
    const title = `Greeting ${Math.random().toString(36).slice(2)} nav`;
    const saved = await admin.client
      .from("canned_replies")
      .insert({ title, content: "Hello! Thanks for writing." })
      .select("id")
      .single();
    expect(saved.error).toBeNull();
    const duplicate = await admin.client
      .from("canned_replies")
      .insert({ title: ` ${title.toUpperCase()} `, content: "Again" });
    expect(duplicate.error?.code).toBe("23505");

    const seen = await user.client.from("canned_replies").select("*");
    expect(seen.data).toEqual([]);
    const denied = await user.client
      .from("canned_replies")
      .insert({ title: "Mine", content: "Mine" });
    expect(denied.error?.code).toBe("42501");
    const untouched = await user.client
      .from("canned_replies")
      .update({ content: "tampered" })
      .eq("id", saved.data!.id)
      .select("id");
    expect(untouched.data).toEqual([]);

    const anon = anonClient();
    clients.push(anon);
    for (const table of ["canned_replies", "ticket_notes"] as const) {
      const read = await anon.from(table).select("*");
      expect(read.error?.code, table).toBe("42501");
    }

    const removed = await admin.client
      .from("canned_replies")
      .delete()
      .eq("id", saved.data!.id)
      .select("id");
    expect(removed.data).toHaveLength(1);
  });
});
