import { Injectable } from '@nestjs/common';
import { smsParts, type CustomerSmsInput, type CustomerSmsReply } from '@kidogo/contracts';
import { normalizePhone } from '@kidogo/mobile-money';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { SmsProviderService } from '../settings/sms-provider.service.js';
import { Calendar } from '../common/calendar.js';
import { isoDayOf } from '../metrics/period.js';

/**
 * A text from staff to a customer: a call nobody answered, a visit planned,
 * a promise to remind. Queued in messages like a payment's reply (the outbox
 * sends it through the organization's SMS provider), with who wrote it, and
 * audited. Refused when there is no provider to send it with, rather than
 * left queued for ever, and to a customer who texted STOP.
 */
@Injectable()
export class CustomerSmsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly sms: SmsProviderService,
    private readonly calendar: Calendar,
  ) {}

  async send(orgId: string, user: AuthUser, customerId: number, input: CustomerSmsInput): Promise<CustomerSmsReply> {
    const [customer] = await this.database.query<{
      name: string;
      phone: string | null;
      normalized: string | null;
      opted_out: Date | null;
      source: string | null;
      phone_country_code: string;
    }>(Prisma.sql`
      SELECT customer_name AS name, phone_contact AS phone, phone_normalized AS normalized, sms_opted_out_at AS opted_out, sms_opt_out_source AS source,
             (SELECT phone_country_code FROM organizations WHERE organization_id = ${orgId}) AS phone_country_code
      FROM customers WHERE organization_id = ${orgId} AND customer_id = ${customerId}::int`);
    if (!customer) throw Errors.notFound('Customer');
    if (customer.opted_out) {
      const how = customer.source === 'sms' ? 'texted STOP' : 'asked for no texts';
      throw Errors.conflict(
        `${customer.name} ${how} on ${isoDayOf(this.calendar.dayOf(customer.opted_out))}: call them instead (an owner or admin lets texts through again when they ask)`,
      );
    }
    let itemId: number | null = null;
    if (input.serial_number) {
      const [item] = await this.database.query<{ item_id: number; customer_id: number | null }>(Prisma.sql`
        SELECT item_id, customer_id FROM items
        WHERE organization_id = ${orgId}
          AND (serial_number = ${input.serial_number} OR serial_normalized = ${input.serial_number.toUpperCase().replace(/[\s-]/g, '')})
        ORDER BY serial_number = ${input.serial_number} DESC LIMIT 1`);
      if (!item) throw Errors.notFound('Device');
      if (item.customer_id !== customerId) {
        throw Errors.badRequest('serial_number', `device ${input.serial_number} is not ${customer.name}'s`);
      }
      itemId = item.item_id;
    }
    const phone = customer.normalized ?? (customer.phone ? normalizePhone(customer.phone, customer.phone_country_code) : null);
    if (!phone) throw Errors.conflict(`${customer.name} has no phone number to text: add one to the customer first`);
    if (!(await this.sms.routeFor(orgId))) {
      throw Errors.conflict('No SMS provider is set up to send it: an owner or admin sets one in Settings → SMS Provider');
    }
    const { parts } = smsParts(input.text);
    const [row] = await this.database.query<{ message_id: number }>(Prisma.sql`
      WITH m AS (
        INSERT INTO messages (organization_id, forwarded_message, recipient_number, delivery_status, item_id, status, sent_by)
        VALUES (${orgId}, ${input.text}, ${phone}, 'queued'::"DeliveryStatus", ${itemId}::int, 'processed'::"MessageStatus", ${user.username})
        RETURNING message_id
      ), a AS (
        INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
        SELECT ${orgId}, ${user.user_id}::int, ${user.username}, 'customer.sms_sent', 'customer', ${String(customerId)},
               ${`SMS to ${customer.name} (${phone}) by ${user.username}: ${input.text}`.slice(0, 1000)},
               jsonb_build_object('message_id', message_id, 'recipient_number', ${phone}::text, 'parts', ${parts}::int,
                                  'serial_number', ${input.serial_number ?? null}::text)
        FROM m RETURNING 1
      )
      SELECT message_id FROM m`);
    return { message: `SMS to ${customer.name} queued`, message_id: row!.message_id, recipient_number: phone, parts, delivery_status: 'queued' };
  }
}
