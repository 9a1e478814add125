import { Injectable } from '@nestjs/common';
import type { Writable } from 'node:stream';
import {
  ERASED_CUSTOMER_NAME,
  personalDataFilePath,
  type EraseCustomerInput,
  type EraseCustomerReply,
  type PersonalDataExport,
  type PersonalDataFormat,
} from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { dateOnly } from '../catalog/format.js';
import { ZipWriter } from '../common/zip-writer.js';
import { readDocumentContent } from '../customer-documents/document-content.js';
import { webhookEventSql } from '../webhooks/webhook-events.js';
import { toCustomer } from './customers.mapper.js';
import { phoneCountry, prismaRun } from './phone-country.js';

/**
 * The forms a phone number takes in stored texts: as typed, 2547…, +2547…,
 * and 07… for a number of the organization's country (its calling code).
 */
export function phoneForms(phone: string, normalized: string | null, countryCode: string): string[] {
  const forms = new Set([phone.trim()]);
  if (normalized) {
    forms.add(normalized);
    forms.add(`+${normalized}`);
    if (normalized.startsWith(countryCode)) forms.add(`0${normalized.slice(countryCode.length)}`);
  }
  return [...forms].filter(Boolean);
}

/** The optional customer fields an erasure empties (the required ones get placeholders). */
const EMPTIED_FIELDS = [
  'phone_normalized', 'email', 'country', 'gender', 'date_of_birth', 'marital_status', 'county', 'constituency', 'ward',
  'sub_location', 'village', 'postal_address', 'occupation', 'employer_name', 'education_level',
] as const satisfies readonly (keyof Prisma.CustomerUpdateInput)[];

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * A customer's rights over their personal data (README "Personal data"): a
 * copy of everything held about them, and its erasure once they owe nothing.
 *
 * Erasing keeps the books: payments, codes, devices, repossessions and their
 * amounts and dates stay, linked to the customer record, which stays too
 * (status 'erased', named "Erased customer"). What goes is what identifies
 * the person: the profile; their documents (ID card, photos, agreement); payer names and phones on their payments (and on
 * payments from their phone no account took); the name on
 * token logs; the texts from and to their phone and about their payments;
 * notes of calls and plans; their name, ID number, phone and email in the
 * activity log; and the bodies of webhook deliveries already made about them.
 */
@Injectable()
export class CustomerPrivacyService {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
  ) {}

  /** Everything held about the customer; with `zip`, each document names its file's path in the archive (see writeZip). */
  async export(orgId: string, id: number, actor: AuthUser, format: PersonalDataFormat = 'json'): Promise<PersonalDataExport> {
    const db = this.database.db;
    const customer = await db.customer.findUnique({ where: { organization_id_id: { organization_id: orgId, id } } });
    if (!customer) throw Errors.notFound('Customer');
    const forms = phoneForms(customer.phone_contact, customer.phone_normalized, await phoneCountry(this.database.query, orgId));
    const q = this.database.query;
    const [organization, devices, plans, payments, tokens, messages, contacts, repossessions, discounts, swaps, tickets, requests, ussd, documents, activity] = await Promise.all([
      db.organization.findUnique({ where: { id: orgId }, select: { id: true, name: true } }),
      q<{ serial_number: string; product_name: string; assigned_at: Date | null; unassigned_at: Date | null; current: boolean }>(Prisma.sql`
        SELECT i.serial_number, i.product_name, a.assigned_at, a.unassigned_at, (a.unassigned_at IS NULL AND i.customer_id = a.customer_id) AS current
        FROM item_assignments a JOIN items i ON i.organization_id = a.organization_id AND i.item_id = a.item_id
        WHERE a.organization_id = ${orgId} AND a.customer_id = ${id}::int
        UNION ALL
        SELECT i.serial_number, i.product_name, i.assigned_at, NULL, true FROM items i
        WHERE i.organization_id = ${orgId} AND i.customer_id = ${id}::int
          AND NOT EXISTS (SELECT 1 FROM item_assignments a WHERE a.organization_id = i.organization_id AND a.item_id = i.item_id
                            AND a.customer_id = i.customer_id AND a.unassigned_at IS NULL)
        ORDER BY 3 NULLS LAST`),
      q<{ template_name: string; serial_number: string | null; assigned_at: Date; ended_at: Date | null; is_active: boolean }>(Prisma.sql`
        SELECT t.template_name, i.serial_number, a.assigned_at, a.ended_at, a.is_active
        FROM template_assignments a JOIN payment_templates t ON t.organization_id = a.organization_id AND t.template_id = a.template_id
        LEFT JOIN items i ON i.organization_id = a.organization_id AND i.item_id = a.item_id
        WHERE a.organization_id = ${orgId} AND a.customer_id = ${id}::int ORDER BY a.assigned_at`),
      q<{ payment_id: number; paid_at: Date; amount: string; currency: string; payment_method: string; status: string; transaction_code: string | null; reference: string | null; payer_phone: string | null; payer_name: string | null; serial_number: string | null; days_bought: number }>(Prisma.sql`
        SELECT p.payment_id, p.paid_at, p.amount::text AS amount, p.currency, p.payment_method, p.status::text AS status, p.transaction_code, p.reference,
               p.payer_phone, p.payer_name, i.serial_number, p.days_bought
        FROM payments p LEFT JOIN items i ON i.organization_id = p.organization_id AND i.item_id = p.item_id
        WHERE p.organization_id = ${orgId} AND ${this.paymentsOf(id, forms, 'p.')}
        ORDER BY p.paid_at, p.payment_id`),
      q<{ created_at: Date; serial_number: string; token_type: string; token: string; days: string; generated_by: string | null }>(Prisma.sql`
        SELECT created_at, serial_number, token_type::text AS token_type, token_value AS token, days_generated::text AS days, generated_by
        FROM token_logs WHERE organization_id = ${orgId} AND customer_id = ${id}::int ORDER BY created_at, token_log_id`),
      q<{ message_id: number; at: Date; phone: string | null; incoming: string | null; outgoing: string | null; sent_by: string | null }>(Prisma.sql`
        SELECT m.message_id, m.created_at AS at, coalesce(m.recipient_number, m.sender) AS phone, m.received_message AS incoming,
               m.forwarded_message AS outgoing, m.sent_by
        FROM messages m WHERE m.organization_id = ${orgId} AND (${this.messagesOf(orgId, id, forms)})
        ORDER BY m.created_at, m.message_id`),
      q<{ created_at: Date; serial_number: string; outcome: string; note: string | null; promised_on: Date | null }>(Prisma.sql`
        SELECT c.created_at, i.serial_number, c.outcome::text AS outcome, c.note, c.promised_on
        FROM collection_contacts c JOIN items i ON i.organization_id = c.organization_id AND i.item_id = c.item_id
        WHERE c.organization_id = ${orgId} AND c.customer_id = ${id}::int ORDER BY c.created_at`),
      q<{ repossessed_at: Date; serial_number: string; reason: string; total_paid: string; written_off: string | null; currency: string }>(Prisma.sql`
        SELECT r.repossessed_at, i.serial_number, r.reason, r.total_paid::text AS total_paid, r.written_off::text AS written_off, r.currency
        FROM repossessions r JOIN items i ON i.organization_id = r.organization_id AND i.item_id = r.item_id
        WHERE r.organization_id = ${orgId} AND r.customer_id = ${id}::int ORDER BY r.repossessed_at`),
      q<{ given_at: Date; serial_number: string; amount: string; currency: string; reason: string; remaining_before: string; remaining_after: string }>(Prisma.sql`
        SELECT d.given_at, i.serial_number, d.amount::text AS amount, d.currency, d.reason,
               d.remaining_before::text AS remaining_before, d.remaining_after::text AS remaining_after
        FROM device_discounts d JOIN items i ON i.organization_id = d.organization_id AND i.item_id = d.item_id
        WHERE d.organization_id = ${orgId} AND d.customer_id = ${id}::int ORDER BY d.given_at, d.discount_id`),
      q<{ swapped_at: Date; old_serial_number: string; new_serial_number: string; reason: string; total_paid: string; days_moved: number }>(Prisma.sql`
        SELECT s.swapped_at, o.serial_number AS old_serial_number, n.serial_number AS new_serial_number, s.reason,
               s.total_paid::text AS total_paid, s.days_moved
        FROM device_swaps s
        JOIN items o ON o.organization_id = s.organization_id AND o.item_id = s.old_item_id
        JOIN items n ON n.organization_id = s.organization_id AND n.item_id = s.new_item_id
        WHERE s.organization_id = ${orgId} AND s.customer_id = ${id}::int ORDER BY s.swapped_at, s.swap_id`),
      q<{ ticket_id: number; opened_at: Date; serial_number: string; category: string; status: string; description: string; resolution: string | null; resolved_at: Date | null }>(Prisma.sql`
        SELECT s.ticket_id, s.opened_at, i.serial_number, s.category::text AS category, s.status::text AS status, s.description, s.resolution, s.resolved_at
        FROM service_tickets s JOIN items i ON i.organization_id = s.organization_id AND i.item_id = s.item_id
        WHERE s.organization_id = ${orgId} AND s.customer_id = ${id}::int ORDER BY s.ticket_id`),
      q<{ request_id: number; created_at: Date; serial_number: string; phone_number: string; amount: string; status: string; mpesa_receipt: string | null; requested_by: string | null }>(Prisma.sql`
        SELECT r.request_id, r.created_at, i.serial_number, r.phone_number, r.amount::text AS amount, r.status, r.mpesa_receipt, u.username AS requested_by
        FROM payment_requests r JOIN items i ON i.organization_id = r.organization_id AND i.item_id = r.item_id
        LEFT JOIN users u ON u.user_id = r.requested_by
        WHERE r.organization_id = ${orgId} AND r.customer_id = ${id}::int ORDER BY r.request_id`),
      q<{ started_at: Date; phone_number: string; steps: number; outcome: string; detail: string | null }>(Prisma.sql`
        SELECT started_at, phone_number, steps, outcome, detail FROM ussd_sessions
        WHERE organization_id = ${orgId} AND customer_id = ${id}::int ORDER BY ussd_session_id`),
      db.customerDocument.findMany({
        where: { organization_id: orgId, customer_id: id },
        select: { id: true, kind: true, file_name: true, content_type: true, size_bytes: true, note: true, uploaded_by: true, created_at: true },
        orderBy: { id: 'asc' },
      }),
      q<{ at: Date; action: string; description: string; actor_username: string | null }>(Prisma.sql`
        SELECT created_at AS at, action, description, actor_username FROM audit_logs
        WHERE organization_id = ${orgId} AND ${this.activityOf(id)} ORDER BY created_at, id`),
    ]);
    await this.audit.record({
      organizationId: orgId,
      actor,
      action: 'customer.data_exported',
      entityType: 'customer',
      entityId: id,
      description:
        `${actor.username} downloaded the personal data held about customer ${customer.customer_name}` +
        (format === 'zip' ? `, with the files of ${documents.length} document${documents.length === 1 ? '' : 's'}` : ''),
      metadata: { format, documents: documents.length },
    });
    return {
      kind: 'kidogo.personal-data',
      version: 1,
      generated_at: new Date().toISOString(),
      generated_by: actor.username,
      organization: { organization_id: orgId, name: organization?.name ?? null },
      customer: toCustomer(customer),
      devices: devices.map((d) => ({ ...d, assigned_at: iso(d.assigned_at), unassigned_at: iso(d.unassigned_at) })),
      payment_plans: plans.map((p) => ({ ...p, assigned_at: p.assigned_at.toISOString(), ended_at: iso(p.ended_at) })),
      payments: payments.map((p) => ({ ...p, paid_at: p.paid_at.toISOString() })),
      tokens: tokens.map((t) => ({ ...t, created_at: t.created_at.toISOString() })),
      messages: messages.map((m) => ({ ...m, at: m.at.toISOString() })),
      collection_contacts: contacts.map((c) => ({ ...c, created_at: c.created_at.toISOString(), promised_on: dateOnly(c.promised_on) })),
      repossessions: repossessions.map((r) => ({ ...r, repossessed_at: r.repossessed_at.toISOString() })),
      discounts: discounts.map((d) => ({ ...d, given_at: d.given_at.toISOString() })),
      device_swaps: swaps.map((s) => ({ ...s, swapped_at: s.swapped_at.toISOString() })),
      service_tickets: tickets.map((k) => ({ ...k, opened_at: k.opened_at.toISOString(), resolved_at: iso(k.resolved_at) })),
      payment_requests: requests.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
      ussd_sessions: ussd.map((u) => ({ ...u, started_at: u.started_at.toISOString() })),
      documents: documents.map(({ id: document_id, created_at, ...d }) => ({
        document_id,
        file: format === 'zip' ? personalDataFilePath({ document_id, ...d }) : null,
        ...d,
        uploaded_at: created_at.toISOString(),
      })),
      activity: activity.map((a) => ({ ...a, at: a.at.toISOString() })),
    };
  }

  /**
   * The copy to hand the customer as one ZIP file: a note on what it holds,
   * the data as `personal-data.json`, and each document's file at the path
   * the data names. Files are read one at a time as the client takes them,
   * so a customer's 30 documents of 10 MB never sit in memory together.
   */
  async writeZip(out: Writable, orgId: string, data: PersonalDataExport): Promise<void> {
    const zip = new ZipWriter(out);
    const readme = [
      `Personal data held by ${data.organization.name ?? data.organization.organization_id} about ${data.customer.customer_name}`,
      `(customer ${data.customer.customer_id}), as at ${data.generated_at}.`,
      '',
      'personal-data.json  details, devices, payment plans, payments, codes, texts, calls and visits,',
      '                    repossessions, discounts, device swaps, service tickets, requests to pay by M-Pesa, the documents kept and the',
      '                    activity log about them',
      `documents/          the files of the ${data.documents.length} document${data.documents.length === 1 ? '' : 's'} kept (ID card, photos, agreement, other)`,
      '',
    ].join('\r\n');
    if (!(await zip.add('README.txt', Buffer.from(readme, 'utf8'), { compress: true }))) return;
    if (!(await zip.add('personal-data.json', Buffer.from(JSON.stringify(data, null, 2), 'utf8'), { compress: true }))) return;
    for (const d of data.documents) {
      const content = d.file && (await readDocumentContent(this.database.pool, orgId, data.customer.customer_id, d.document_id));
      // Deleted since the list was read: it is still listed, as it was held a moment ago, but has no file to give.
      if (!content || !d.file) continue;
      if (!(await zip.add(d.file, content))) return;
    }
    await zip.finish();
  }

  /**
   * Erases what identifies the customer, in one transaction (README
   * "Personal data"). Refused while they hold a device not yet paid off: its
   * payments must still find them by phone, and its codes reach them by SMS.
   */
  async erase(orgId: string, id: number, input: EraseCustomerInput, actor: AuthUser): Promise<EraseCustomerReply> {
    return this.database.db.$transaction(async (tx) => {
      const [before] = await tx.$queryRaw<{ customer_name: string; id_number: string; phone_contact: string; phone_normalized: string | null; email: string | null; status: string }[]>`
        SELECT customer_name, id_number, phone_contact, phone_normalized, email, status FROM customers
        WHERE organization_id = ${orgId} AND customer_id = ${id}::int FOR UPDATE`;
      if (!before) throw Errors.notFound('Customer');
      if (before.status === 'erased') throw Errors.conflict("This customer's personal data was already erased");
      const [owing] = await tx.$queryRaw<{ serial_number: string }[]>`
        SELECT serial_number FROM items WHERE organization_id = ${orgId} AND customer_id = ${id}::int AND paid_off_at IS NULL
        ORDER BY assigned_at DESC NULLS LAST LIMIT 1`;
      if (owing) {
        throw Errors.conflict(
          `${before.customer_name} still pays for device ${owing.serial_number}: take it back (Unassign or Repossess) or wait until it is paid off, then erase`,
        );
      }
      const forms = phoneForms(before.phone_contact, before.phone_normalized, await phoneCountry(prismaRun(tx), orgId));
      // What identifies them in free text, longest first (so a phone's longer form goes before a shorter one it holds).
      const identifiers = [before.customer_name, before.id_number, before.email, ...forms]
        .filter((v): v is string => !!v && v.trim().length >= 3)
        .sort((a, b) => b.length - a.length);

      const messages = await tx.$executeRaw(Prisma.sql`
        UPDATE messages m SET
          received_message = CASE WHEN m.received_message IS NULL THEN NULL ELSE '[erased]' END,
          forwarded_message = CASE WHEN m.forwarded_message IS NULL THEN NULL ELSE '[erased]' END,
          raw_payload = NULL, result = NULL, sender = NULL, recipient_number = NULL,
          delivery_status = CASE WHEN m.delivery_status IN ('queued', 'sending') THEN 'failed'::"DeliveryStatus" ELSE m.delivery_status END,
          last_delivery_error = CASE WHEN m.delivery_status IN ('queued', 'sending') THEN 'Not sent: the customer''s personal data was erased' ELSE m.last_delivery_error END,
          next_attempt_at = NULL
        WHERE m.organization_id = ${orgId} AND (${this.messagesOf(orgId, id, forms)})`);
      // Free text staff typed (a payment's reference, why it was held, a repossession's reason) loses the identifiers.
      const scrub = (column: string) =>
        identifiers.reduce((text, value) => Prisma.sql`replace(${text}, ${value}::text, ${ERASED_CUSTOMER_NAME}::text)`, Prisma.raw(column));
      const payments = await tx.$executeRaw`
        UPDATE payments SET payer_phone = NULL, payer_name = NULL, reference = ${scrub('reference')}, hold_reason = ${scrub('hold_reason')}
        WHERE organization_id = ${orgId} AND ${this.paymentsOf(id, forms)}
          AND (payer_phone IS NOT NULL OR payer_name IS NOT NULL OR reference IS DISTINCT FROM ${scrub('reference')}
               OR hold_reason IS DISTINCT FROM ${scrub('hold_reason')})`;
      await tx.$executeRaw`
        UPDATE repossessions SET reason = ${scrub('reason')} WHERE organization_id = ${orgId} AND customer_id = ${id}::int AND reason <> ${scrub('reason')}`;
      await tx.$executeRaw`
        UPDATE device_discounts SET reason = ${scrub('reason')} WHERE organization_id = ${orgId} AND customer_id = ${id}::int AND reason <> ${scrub('reason')}`;
      await tx.$executeRaw`
        UPDATE device_swaps SET reason = ${scrub('reason')} WHERE organization_id = ${orgId} AND customer_id = ${id}::int AND reason <> ${scrub('reason')}`;
      const tokens = await tx.$executeRaw`
        UPDATE token_logs SET customer_name = NULL WHERE organization_id = ${orgId} AND customer_id = ${id}::int AND customer_name IS NOT NULL`;
      const contacts = await tx.$executeRaw`
        UPDATE collection_contacts SET note = NULL WHERE organization_id = ${orgId} AND customer_id = ${id}::int AND note IS NOT NULL`;
      const tickets = await tx.$executeRaw`
        UPDATE service_tickets SET description = ${scrub('description')}, resolution = ${scrub('resolution')}
        WHERE organization_id = ${orgId} AND customer_id = ${id}::int
          AND (description <> ${scrub('description')} OR resolution IS DISTINCT FROM ${scrub('resolution')})`;
      const requests = await tx.$executeRaw`
        UPDATE payment_requests SET phone_number = '' WHERE organization_id = ${orgId} AND customer_id = ${id}::int AND phone_number <> ''`;
      const plans = await tx.$executeRaw`
        UPDATE template_assignments SET notes = NULL WHERE organization_id = ${orgId} AND customer_id = ${id}::int AND notes IS NOT NULL`;
      const activity = await tx.$executeRaw(Prisma.sql`
        -- A device's entries (a repossession, a swap) keep their figures, not the customer's name.
        UPDATE audit_logs SET description = ${scrub('description')}, metadata = CASE WHEN entity_type = 'customer' THEN NULL ELSE metadata - 'customer_name' END
        WHERE organization_id = ${orgId} AND ${this.activityOf(id)}`);
      // Deliveries still on their way go as they are (to the organization's own systems, ahead of customer.erased).
      const webhooks = await tx.$executeRaw`
        UPDATE webhook_deliveries SET payload = json_build_object('id', payload->'id', 'type', payload->'type', 'created_at', payload->'created_at',
                                                                  'organization_id', payload->'organization_id',
                                                                  'data', json_build_object('customer_id', ${id}::int, 'erased', true))
        WHERE organization_id = ${orgId} AND status <> 'pending' AND payload->'data'->>'customer_id' = ${String(id)}`;
      // The ID card, photos and agreement are the person themselves: they go, files and all.
      const { count: documents } = await tx.customerDocument.deleteMany({ where: { organization_id: orgId, customer_id: id } });
      // Their own page's link dies with what it showed.
      await tx.customerPortalLink.deleteMany({ where: { organization_id: orgId, customer_id: id } });
      // Their dials of the USSD menu name their phone and what they did: they go.
      const { count: ussdSessions } = await tx.ussdSession.deleteMany({ where: { organization_id: orgId, customer_id: id } });
      const row = await tx.customer.update({
        where: { organization_id_id: { organization_id: orgId, id } },
        data: {
          ...Object.fromEntries(EMPTIED_FIELDS.map((f) => [f, null])),
          customer_name: ERASED_CUSTOMER_NAME,
          id_number: `ERASED-${id}`,
          phone_contact: '',
          status: 'erased',
        },
      });
      const erased = {
        payments,
        tokens,
        messages,
        collection_contacts: contacts,
        service_tickets: tickets,
        payment_requests: requests,
        payment_plans: plans,
        activity_entries: activity,
        webhook_deliveries: webhooks,
        documents,
        ussd_sessions: ussdSessions,
      };
      await tx.$executeRaw(webhookEventSql(orgId, 'customer.erased', { customer_id: id, erased_by: actor.username, erased_at: row.updated_at.toISOString() }));
      await this.audit.record(
        {
          organizationId: orgId,
          actor,
          action: 'customer.erased',
          entityType: 'customer',
          entityId: id,
          description: `${actor.username} erased the personal data of customer ${id}: ${input.reason}`,
          metadata: { reason: input.reason, ...erased },
        },
        tx as unknown as Prisma.TransactionClient,
      );
      return { message: `The personal data of customer ${id} was erased`, customer: toCustomer(row), erased };
    });
  }

  /**
   * The customer's payments, and the ones from their phone that no customer's account took (held, rejected):
   * not another customer's payment made from the same phone (a relative paying for both), which is that customer's.
   */
  private paymentsOf(id: number, forms: string[], alias = ''): Prisma.Sql {
    const col = (c: string) => Prisma.raw(`${alias}${c}`);
    return Prisma.sql`(${col('customer_id')} = ${id}::int OR (${col('customer_id')} IS NULL AND ${col('payer_phone')} = ANY(${forms}::text[])))`;
  }

  /** The customer's texts: about their payments (as paymentsOf), or from or to their phone and about no payment. */
  private messagesOf(orgId: string, id: number, forms: string[]): Prisma.Sql {
    return Prisma.sql`m.payment_id IN (SELECT payment_id FROM payments WHERE organization_id = ${orgId} AND ${this.paymentsOf(id, forms)})
      OR (m.payment_id IS NULL AND (m.recipient_number = ANY(${forms}::text[]) OR m.sender = ANY(${forms}::text[])))`;
  }

  /** Activity log entries about the customer, or naming them in what they recorded. */
  private activityOf(id: number): Prisma.Sql {
    return Prisma.sql`((entity_type = 'customer' AND entity_id = ${String(id)}) OR metadata->>'customer_id' = ${String(id)})`;
  }
}
