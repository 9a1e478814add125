import { Injectable } from '@nestjs/common';
import {
  normalizeSerial,
  TICKET_CATEGORY_LABELS,
  TICKET_STATUS_LABELS,
  type Ticket,
  type TicketAssigneesReply,
  type TicketCategory,
  TICKET_HISTORY_MAX,
  type TicketHistoryReply,
  type TicketReply,
  type TicketsReply,
  type TicketStatus,
  type TokenReply,
  ZTicketInputSchema,
  ZTicketNoteInputSchema,
  ZTicketsQuerySchema,
  ZTicketUpdateSchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService, type Run } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import { pagePagination } from '../common/pagination.js';
import type { AuthUser } from '../common/tenancy.js';
import { webhookEventSql } from '../webhooks/webhook-events.js';
import { toWarranty, warrantyJoin } from '../warranties/warranty.js';
import { managersNotificationSql, userNotificationSql, type UserNotice } from '../notifications/inbox-sql.js';
import { TokensService } from '../tokens/tokens.service.js';
import { SmsProviderService } from '../settings/sms-provider.service.js';
import { formatFreeDaysReply, normalizePhone, replyLanguage } from '@kidogo/mobile-money';

type TicketInput = z.output<typeof ZTicketInputSchema>;
type TicketUpdate = z.output<typeof ZTicketUpdateSchema>;
type TicketsQuery = z.output<typeof ZTicketsQuerySchema>;
type TicketNoteInput = z.output<typeof ZTicketNoteInputSchema>;

/** The 400 of a resolution missing when a ticket is resolved. */
export const RESOLUTION_REQUIRED = 'is required to resolve a ticket';

interface TicketRow {
  ticket_id: number;
  item_id: number;
  serial_number: string;
  product_name: string;
  customer_id: number | null;
  customer_name: string | null;
  phone_number: string | null;
  category: TicketCategory;
  status: TicketStatus;
  description: string;
  resolution: string | null;
  assigned_to: number | null;
  assignee: string | null;
  opened_by: string | null;
  opened_at: Date;
  updated_at: Date;
  resolved_at: Date | null;
  compensation_days: number | null;
  assigned_at: Date | null;
  warranty_months: number | null;
  warranty_until: Date | null;
}

const DAY_MS = 86_400_000;

function toTicket(r: TicketRow, now = Date.now()): Ticket {
  const end = r.resolved_at?.getTime() ?? now;
  return {
    ticket_id: r.ticket_id,
    item_id: r.item_id,
    serial_number: r.serial_number,
    product_name: r.product_name,
    customer_id: r.customer_id,
    customer_name: r.customer_name,
    phone_number: r.phone_number,
    category: r.category,
    status: r.status,
    description: r.description,
    resolution: r.resolution,
    assigned_to: r.assigned_to === null || r.assignee === null ? null : { user_id: r.assigned_to, username: r.assignee },
    opened_by: r.opened_by,
    opened_at: r.opened_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    resolved_at: r.resolved_at?.toISOString() ?? null,
    days_open: Math.max(0, Math.floor((end - r.opened_at.getTime()) / DAY_MS)),
    compensation_days: r.compensation_days,
    // As it stood when the fault was reported: what a claim to the maker is judged by.
    warranty: toWarranty(r, r.opened_at),
  };
}

/** The ticket rows of `t` (service_tickets) with their device, customer and users. */
const ROW = Prisma.sql`
  t.ticket_id, t.item_id, i.serial_number, i.product_name, t.customer_id, c.customer_name, c.phone_contact AS phone_number,
  t.category::text AS category, t.status::text AS status, t.description, t.resolution, t.assigned_to,
  a.username AS assignee, o.username AS opened_by, t.opened_at, t.updated_at, t.resolved_at, t.compensation_days,
  i.assigned_at, warranty.warranty_months, warranty.warranty_until`;
/** The device's warranty, of the account the ticket is about: while the device is still with the ticket's customer. */
const JOINS = Prisma.sql`
  JOIN items i ON i.organization_id = t.organization_id AND i.item_id = t.item_id
  ${warrantyJoin('i', Prisma.sql`i.customer_id = t.customer_id`)}
  LEFT JOIN customers c ON c.organization_id = t.organization_id AND c.customer_id = t.customer_id
  LEFT JOIN users a ON a.user_id = t.assigned_to
  LEFT JOIN users o ON o.user_id = t.opened_by`;

/**
 * Service tickets: after-sales work on a device, from the customer's report
 * to what was done (README "Service tickets"). Every change commits with its
 * activity log entry and its webhook event.
 */
@Injectable()
export class TicketsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly tokens: TokensService,
    private readonly sms: SmsProviderService,
  ) {}

  async list(orgId: string, q: TicketsQuery, actor: AuthUser): Promise<TicketsReply> {
    const where: Prisma.Sql[] = [Prisma.sql`t.organization_id = ${orgId}`];
    // Said both ways: `<> resolved` as the partial index service_tickets_active says it (the default list reads it),
    // the two statuses for the index of one user's tickets (Assigned to Me).
    if (q.status === 'active') where.push(Prisma.sql`t.status <> 'resolved'::"TicketStatus" AND t.status IN ('open'::"TicketStatus", 'in_progress'::"TicketStatus")`);
    else if (q.status !== 'all') where.push(Prisma.sql`t.status = ${q.status}::"TicketStatus"`);
    if (q.mine) where.push(Prisma.sql`t.assigned_to = ${actor.user_id}::int`);
    if (q.serial_number) {
      // The device's own tickets, by its serial as typed (case, spaces and dashes aside, as the device list matches it).
      where.push(Prisma.sql`t.item_id IN (SELECT item_id FROM items WHERE organization_id = ${orgId} AND serial_normalized = ${normalizeSerial(q.serial_number)})`);
    }
    if (q.customer_id !== undefined) where.push(Prisma.sql`t.customer_id = ${q.customer_id}::int`);
    const filter = Prisma.join(where, ' AND ');
    const offset = (q.page - 1) * q.limit;
    const [rows, counts] = await Promise.all([
      // The page's keys first (an index range), then only those 25 rows joined: a deep page skips keys, not joined rows.
      this.database.query<TicketRow>(Prisma.sql`
        SELECT ${ROW}
        FROM (SELECT t.ticket_id FROM service_tickets t WHERE ${filter} ORDER BY t.ticket_id DESC LIMIT ${q.limit}::int OFFSET ${offset}::int) k
        JOIN service_tickets t ON t.organization_id = ${orgId} AND t.ticket_id = k.ticket_id ${JOINS}
        ORDER BY t.ticket_id DESC`),
      this.database.prepared<{ status: TicketStatus; n: number }>(Prisma.sql`
        SELECT status::text AS status, n FROM ticket_counts WHERE organization_id = ${orgId}`),
    ]);
    const byStatus = { open: 0, in_progress: 0, resolved: 0 };
    for (const c of counts) byStatus[c.status] = c.n;
    // The kept counts give the total of a status filter; one user's, device's or customer's tickets are counted (a few, by index).
    const total =
      q.mine || q.serial_number || q.customer_id !== undefined
        ? (await this.database.query<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM service_tickets t WHERE ${filter}`))[0]!.n
        : q.status === 'active'
          ? byStatus.open + byStatus.in_progress
          : q.status === 'all'
            ? byStatus.open + byStatus.in_progress + byStatus.resolved
            : byStatus[q.status];
    const now = Date.now();
    return {
      data: {
        items: rows.map((r) => toTicket(r, now)),
        pagination: pagePagination(total, q.page, q.limit),
        counts: byStatus,
      },
    };
  }

  async get(orgId: string, id: number): Promise<TicketReply> {
    return { data: toTicket(await this.row(this.database.query, orgId, id)) };
  }

  /**
   * The ticket's newest TICKET_HISTORY_MAX activity log entries, oldest first (a long history keeps its latest
   * changes), read backwards on the partial index audit_logs_ticket_entries.
   */
  async history(orgId: string, id: number): Promise<TicketHistoryReply> {
    await this.row(this.database.query, orgId, id);
    const entries = await this.database.prepared<{ at: Date; action: string; description: string; actor_username: string | null }>(Prisma.sql`
      SELECT created_at AS at, action, description, actor_username FROM audit_logs
      WHERE organization_id = ${orgId} AND entity_type = 'ticket' AND entity_id = ${String(id)}
      ORDER BY id DESC LIMIT ${TICKET_HISTORY_MAX}::int`);
    return { data: entries.reverse().map((e) => ({ ...e, at: e.at.toISOString() })) };
  }

  /** The organization's active users, by name: whom a ticket can be given to. */
  async assignees(orgId: string): Promise<TicketAssigneesReply> {
    const users = await this.database.prepared<{ user_id: number; username: string; role: string }>(Prisma.sql`
      SELECT user_id, username, role::text AS role FROM users
      WHERE organization_id = ${orgId} AND is_active ORDER BY lower(username), user_id`);
    return { data: users };
  }

  async open(orgId: string, input: TicketInput, actor: AuthUser): Promise<TicketReply> {
    const ticket = await this.database.transaction(async (run) => {
      const [item] = await run<{ item_id: number; serial_number: string; customer_id: number | null }>(Prisma.sql`
        SELECT item_id, serial_number, customer_id FROM items
        WHERE organization_id = ${orgId} AND serial_normalized = ${normalizeSerial(input.serial_number)}`);
      if (!item) throw Errors.notFound('Device');
      if (input.assigned_to != null) await this.assignee(run, orgId, input.assigned_to);
      const [written] = await run<{ ticket_id: number }>(Prisma.sql`
        INSERT INTO service_tickets (organization_id, item_id, customer_id, category, description, assigned_to, opened_by)
        VALUES (${orgId}, ${item.item_id}::int, ${item.customer_id}::int, ${input.category}::"TicketCategory", ${input.description},
                ${input.assigned_to ?? null}::int, ${actor.user_id}::int)
        RETURNING ticket_id`);
      const ticket = toTicket(await this.row(run, orgId, written!.ticket_id));
      await this.record(run, orgId, actor, 'ticket.opened', ticket,
        `Ticket #${ticket.ticket_id} opened for device ${ticket.serial_number}: ${TICKET_CATEGORY_LABELS[ticket.category]}` +
          (ticket.assigned_to ? `, assigned to ${ticket.assigned_to.username}` : ''),
        { category: ticket.category, assigned_to: ticket.assigned_to?.username ?? null });
      await run(webhookEventSql(orgId, 'ticket.opened', { ...ticket }));
      if (ticket.assigned_to && ticket.assigned_to.user_id !== actor.user_id) {
        await run(userNotificationSql(assignedNotice(orgId, ticket, ticket.assigned_to.user_id, actor)));
      }
      return ticket;
    });
    return { data: ticket };
  }

  /**
   * A problem the customer reported themselves (the USSD menu): a ticket opened by nobody for the device they hold,
   * unless one of the same category is still open or in progress for it and them, which is answered instead (a
   * customer who dials twice has one ticket). The device's row is locked, so two reports at once open one.
   */
  async openForCustomer(
    orgId: string,
    report: { itemId: number; customerId: number; category: TicketCategory; description: string; via: string },
  ): Promise<{ ticket: Ticket; already: boolean }> {
    return this.database.transaction(async (run) => {
      const [item] = await run<{ customer_id: number | null }>(Prisma.sql`
        SELECT customer_id FROM items WHERE organization_id = ${orgId} AND item_id = ${report.itemId}::int FOR UPDATE`);
      if (!item || item.customer_id !== report.customerId) throw Errors.notFound('Device');
      const [open] = await run<{ ticket_id: number }>(Prisma.sql`
        SELECT ticket_id FROM service_tickets
        WHERE organization_id = ${orgId} AND item_id = ${report.itemId}::int AND customer_id = ${report.customerId}::int
          AND category = ${report.category}::"TicketCategory" AND status <> 'resolved'
        ORDER BY ticket_id DESC LIMIT 1`);
      if (open) return { ticket: toTicket(await this.row(run, orgId, open.ticket_id)), already: true };
      const [written] = await run<{ ticket_id: number }>(Prisma.sql`
        INSERT INTO service_tickets (organization_id, item_id, customer_id, category, description)
        VALUES (${orgId}, ${report.itemId}::int, ${report.customerId}::int, ${report.category}::"TicketCategory", ${report.description})
        RETURNING ticket_id`);
      const ticket = toTicket(await this.row(run, orgId, written!.ticket_id));
      await run(Prisma.sql`
        INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
        VALUES (${orgId}, NULL, NULL, 'ticket.opened', 'ticket', ${String(ticket.ticket_id)},
                ${`Ticket #${ticket.ticket_id} opened for device ${ticket.serial_number} by the customer ${report.via}: ${TICKET_CATEGORY_LABELS[ticket.category]}`},
                ${JSON.stringify({ category: ticket.category, assigned_to: null, via: report.via, item_id: ticket.item_id, customer_id: ticket.customer_id })}::jsonb)`);
      await run(webhookEventSql(orgId, 'ticket.opened', { ...ticket }));
      // Nobody opened it or was given it: the owners and admins are told, to give it to someone.
      await run(
        managersNotificationSql({
          orgId,
          kind: 'ticket_reported',
          // Never the customer's name: notifications outlive an erasure of their personal data (README "Your notifications").
          message: `The customer of ${ticket.serial_number} reported a problem ${report.via}: ${TICKET_CATEGORY_LABELS[ticket.category]} (ticket #${ticket.ticket_id})`,
          ticketId: ticket.ticket_id,
          itemId: ticket.item_id,
          actor: null,
        }),
      );
      return { ticket, already: false };
    });
  }

  async update(orgId: string, id: number, input: TicketUpdate, actor: AuthUser): Promise<TicketReply> {
    let token: TokenReply | undefined;
    let codeSms: TicketReply['code_sms'];
    // Checked before anything changes: a text that cannot go refuses the resolution, rather than resolve without it.
    if (input.send_code_sms && !(await this.sms.routeFor(orgId))) {
      throw Errors.conflict('No SMS provider is set up to text the code: an owner or admin sets one in Settings → SMS Provider');
    }
    const ticket = await this.database.transaction(async (run) => {
      // Locked, so two people updating one ticket at once each see the other's change.
      const [before] = await run<{ status: TicketStatus; category: TicketCategory; assigned_to: number | null; resolution: string | null; opened_by: number | null }>(Prisma.sql`
        SELECT status::text AS status, category::text AS category, assigned_to, resolution, opened_by FROM service_tickets
        WHERE organization_id = ${orgId} AND ticket_id = ${id}::int FOR UPDATE`);
      if (!before) throw Errors.notFound('Ticket');
      const status = input.status ?? before.status;
      const resolution = input.resolution === undefined ? before.resolution : input.resolution;
      if (status === 'resolved' && !resolution) throw Errors.badRequest('resolution', RESOLUTION_REQUIRED);
      if (input.assigned_to != null && input.assigned_to !== before.assigned_to) await this.assignee(run, orgId, input.assigned_to);
      const assignedTo = input.assigned_to === undefined ? before.assigned_to : input.assigned_to;
      const category = input.category ?? before.category;
      const changed: string[] = [];
      if (status !== before.status) changed.push('status');
      if (category !== before.category) changed.push('category');
      if (assignedTo !== before.assigned_to) changed.push('assigned_to');
      if (resolution !== before.resolution) changed.push('resolution');
      const days = input.compensation_days ?? null;
      if (days !== null) {
        if (before.status === 'resolved') throw Errors.conflict(`Ticket #${id} is already resolved: give free days on the Tokens page`);
        token = await this.compensate(run, orgId, id, days, actor);
        if (input.send_code_sms) codeSms = await this.textCode(run, orgId, id, token, actor);
      }
      if (!changed.length) return toTicket(await this.row(run, orgId, id));

      await run(Prisma.sql`
        UPDATE service_tickets SET status = ${status}::"TicketStatus", category = ${category}::"TicketCategory",
          assigned_to = ${assignedTo}::int, resolution = ${resolution}, updated_at = now(),
          compensation_days = CASE WHEN ${days}::int IS NULL THEN compensation_days ELSE coalesce(compensation_days, 0) + ${days}::int END,
          resolved_at = CASE WHEN ${status}::"TicketStatus" <> 'resolved' THEN NULL
                             WHEN status = 'resolved' THEN resolved_at ELSE now() END
        WHERE organization_id = ${orgId} AND ticket_id = ${id}::int`);
      const ticket = toTicket(await this.row(run, orgId, id));
      const parts: string[] = [];
      if (changed.includes('status')) parts.push(`${TICKET_STATUS_LABELS[before.status]} → ${TICKET_STATUS_LABELS[status]}`);
      if (changed.includes('assigned_to')) parts.push(ticket.assigned_to ? `assigned to ${ticket.assigned_to.username}` : 'unassigned');
      if (changed.includes('category')) parts.push(`category ${TICKET_CATEGORY_LABELS[category]}`);
      if (changed.includes('resolution')) parts.push(resolution ? `resolution: ${resolution}` : 'resolution cleared');
      if (days !== null) {
        parts.push(`${days} free day${days === 1 ? '' : 's'} given (code count ${token!.token_count})${codeSms ? `, texted to ${codeSms.recipient_number}` : ''}`);
      }
      const action = changed.includes('status') ? 'ticket.status_changed' : 'ticket.updated';
      await this.record(run, orgId, actor, action, ticket, `Ticket #${id} (device ${ticket.serial_number}): ${parts.join('; ')}`, {
        changed,
        from: { status: before.status, category: before.category, assigned_to: before.assigned_to, resolution: before.resolution },
        ...(days !== null ? { compensation_days: days } : {}),
      });
      if (changed.includes('status') && status === 'resolved') await run(webhookEventSql(orgId, 'ticket.resolved', { ...ticket }));
      for (const notice of this.notices(orgId, ticket, before, actor)) await run(userNotificationSql(notice));
      return ticket;
    });
    return { data: ticket, ...(token ? { token } : {}), ...(codeSms ? { code_sms: codeSms } : {}) };
  }

  /**
   * A note on a ticket, without moving it on: its Activity Log entry (the ticket's history), the ticket's updated_at,
   * and a notification to whoever opened it or is assigned it, but the one who wrote it. Answers the history.
   */
  async addNote(orgId: string, id: number, input: TicketNoteInput, actor: AuthUser): Promise<TicketHistoryReply> {
    await this.database.transaction(async (run) => {
      const [before] = await run<{ assigned_to: number | null; opened_by: number | null }>(Prisma.sql`
        UPDATE service_tickets SET updated_at = now() WHERE organization_id = ${orgId} AND ticket_id = ${id}::int
        RETURNING assigned_to, opened_by`);
      if (!before) throw Errors.notFound('Ticket');
      const ticket = toTicket(await this.row(run, orgId, id));
      await this.record(run, orgId, actor, 'ticket.noted', ticket, `Ticket #${id} (device ${ticket.serial_number}): Note: ${input.note}`, { note: input.note });
      // Without the note's text: it may name the customer, and an erasure scrubs the Activity Log, not copies of it.
      for (const userId of new Set([before.assigned_to, before.opened_by])) {
        if (userId === null || userId === actor.user_id) continue;
        await run(userNotificationSql({ orgId, userId, kind: 'ticket_noted', ticketId: id, itemId: ticket.item_id, actor: actor.username,
          message: `${actor.username} added a note to ticket #${id} on ${ticket.serial_number}` }));
      }
    });
    return this.history(orgId, id);
  }

  /**
   * Free days for the time the device was down: an add-time code for the ticket's device, in the ticket's
   * transaction. Only for a device a customer still pays for.
   */
  private async compensate(run: Run, orgId: string, id: number, days: number, actor: AuthUser): Promise<TokenReply> {
    const [device] = await run<{ serial_number: string; customer_id: number | null; paid_off_at: Date | null }>(Prisma.sql`
      SELECT i.serial_number, i.customer_id, i.paid_off_at FROM service_tickets t
      JOIN items i ON i.organization_id = t.organization_id AND i.item_id = t.item_id
      WHERE t.organization_id = ${orgId} AND t.ticket_id = ${id}::int`);
    if (device!.customer_id === null) throw Errors.conflict(`Device ${device!.serial_number} has no customer: there is nobody to give free days to`);
    if (device!.paid_off_at) throw Errors.conflict(`Device ${device!.serial_number} is paid off: it needs no free days`);
    return this.tokens.issueIn(run, orgId, actor, device!.serial_number, { type: 'add_time', days }, 'compensation_days');
  }

  /** Queues the free days' code to the device's customer, in the organization's reply language, in the ticket's transaction. */
  private async textCode(run: Run, orgId: string, id: number, token: TokenReply, actor: AuthUser): Promise<NonNullable<TicketReply['code_sms']>> {
    const [to] = await run<{
      item_id: number;
      customer_name: string;
      phone_contact: string;
      phone_normalized: string | null;
      reply_language: string;
      phone_country_code: string;
    }>(Prisma.sql`
      SELECT i.item_id, c.customer_name, c.phone_contact, c.phone_normalized, o.reply_language, o.phone_country_code
      FROM service_tickets t
      JOIN items i ON i.organization_id = t.organization_id AND i.item_id = t.item_id
      JOIN customers c ON c.organization_id = i.organization_id AND c.customer_id = i.customer_id
      JOIN organizations o ON o.organization_id = t.organization_id
      WHERE t.organization_id = ${orgId} AND t.ticket_id = ${id}::int`);
    const phone = to!.phone_normalized ?? (to!.phone_contact ? normalizePhone(to!.phone_contact, to!.phone_country_code) : null);
    if (!phone) throw Errors.conflict(`${to!.customer_name} has no phone number to text the code to: add one to the customer, or give the code by hand`);
    const text = formatFreeDaysReply({
      language: replyLanguage(to!.reply_language),
      serialNumber: token.serial_number,
      days: token.days,
      token: token.code_token,
      customerName: to!.customer_name,
    });
    const [message] = await run<{ message_id: number }>(Prisma.sql`
      INSERT INTO messages (organization_id, forwarded_message, recipient_number, delivery_status, item_id, status, sent_by)
      VALUES (${orgId}, ${text}, ${phone}, 'queued'::"DeliveryStatus", ${to!.item_id}::int, 'processed'::"MessageStatus", ${actor.username})
      RETURNING message_id`);
    return { message_id: message!.message_id, recipient_number: phone, text };
  }

  private async row(run: Run, orgId: string, id: number): Promise<TicketRow> {
    const [row] = await run<TicketRow>(Prisma.sql`
      SELECT ${ROW} FROM service_tickets t ${JOINS} WHERE t.organization_id = ${orgId} AND t.ticket_id = ${id}::int`);
    if (!row) throw Errors.notFound('Ticket');
    return row;
  }

  /**
   * Who is told of a change in their own notifications, never the one who made it: a new assignee; the user who
   * opened a ticket now resolved; the assignee of a resolved ticket opened again (unless just told of the assignment).
   */
  private notices(orgId: string, ticket: Ticket, before: { status: TicketStatus; assigned_to: number | null; opened_by: number | null }, actor: AuthUser): UserNotice[] {
    const notices: UserNotice[] = [];
    const assignee = ticket.assigned_to?.user_id ?? null;
    const assigned = assignee !== null && assignee !== before.assigned_to && assignee !== actor.user_id;
    if (assigned) notices.push(assignedNotice(orgId, ticket, assignee, actor));
    const on = `Ticket #${ticket.ticket_id} on ${ticket.serial_number}`;
    if (ticket.status === 'resolved' && before.status !== 'resolved' && before.opened_by !== null && before.opened_by !== actor.user_id) {
      // Without the resolution's text: it may name the customer, and an erasure scrubs the ticket, not copies of it.
      notices.push({ orgId, userId: before.opened_by, kind: 'ticket_resolved', ticketId: ticket.ticket_id, itemId: ticket.item_id, actor: actor.username,
        message: `${on}, which you opened, was resolved by ${actor.username}` });
    }
    if (before.status === 'resolved' && ticket.status !== 'resolved' && assignee !== null && assignee !== actor.user_id && !assigned) {
      notices.push({ orgId, userId: assignee, kind: 'ticket_reopened', ticketId: ticket.ticket_id, itemId: ticket.item_id, actor: actor.username,
        message: `${on}, assigned to you, was opened again by ${actor.username}` });
    }
    return notices;
  }

  /** A 400 on assigned_to unless it names an active user of the organization. */
  private async assignee(run: Run, orgId: string, userId: number): Promise<void> {
    const [user] = await run<{ user_id: number }>(Prisma.sql`
      SELECT user_id FROM users WHERE user_id = ${userId}::int AND organization_id = ${orgId} AND is_active`);
    if (!user) throw Errors.badRequest('assigned_to', 'must be an active user of your organization');
  }

  /** The activity log entry of a change, in its transaction. */
  private async record(run: Run, orgId: string, actor: AuthUser, action: string, ticket: Ticket, description: string, metadata: object): Promise<void> {
    await run(Prisma.sql`
      INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
      VALUES (${orgId}, ${actor.user_id}::int, ${actor.username}, ${action}, 'ticket', ${String(ticket.ticket_id)}, ${description},
              ${JSON.stringify({ ...metadata, item_id: ticket.item_id, customer_id: ticket.customer_id })}::jsonb)`);
  }
}

/** The notification of a ticket given to `userId` by `actor`. */
function assignedNotice(orgId: string, ticket: Ticket, userId: number, actor: AuthUser): UserNotice {
  return {
    orgId,
    userId,
    kind: 'ticket_assigned',
    ticketId: ticket.ticket_id,
    itemId: ticket.item_id,
    actor: actor.username,
    message: `Ticket #${ticket.ticket_id} on ${ticket.serial_number} (${TICKET_CATEGORY_LABELS[ticket.category]}) was assigned to you by ${actor.username}`,
  };
}
