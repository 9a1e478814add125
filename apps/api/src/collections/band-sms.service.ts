import { Injectable } from '@nestjs/common';
import {
  COLLECTION_BUCKET_LABELS,
  NO_AGENT,
  MAX_BAND_SMS,
  MAX_SMS_PARTS,
  fillPlaceholders,
  smsParts,
  type BandSmsReply,
  type ZBandSmsSchema,
} from '@kidogo/contracts';
import { formatCentsGrouped, normalizePhone, parseAmountToCents } from '@kidogo/mobile-money';
import type { z } from 'zod';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { SmsProviderService } from '../settings/sms-provider.service.js';
import { phoneCountry } from '../customers/phone-country.js';
import { CollectionsService } from './collections.service.js';

type BandSmsInput = z.output<typeof ZBandSmsSchema>;
const SAMPLE = 3;

/** An amount as a text to a customer says it ("KES 4,900.00"); empty without one (a device on no plan). */
export const amount = (currency: string | null, value: string | null): string => {
  const cents = value === null ? null : parseAmountToCents(value);
  return cents === null ? '' : `${currency?.trim() || 'KES'} ${formatCentsGrouped(cents)}`;
};

/**
 * One text to every device of a band of Collections (the customers 8–30 days
 * without credit, say), filled in for each device: the customer's name, the
 * serial number to pay to, the days without credit, what is left to pay.
 * Queued like any staff SMS (the outbox sends it through the organization's
 * provider), one message per device, each listed in the device's history
 * with who sent it; audited once with the text and the count.
 */
@Injectable()
export class BandSmsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly collections: CollectionsService,
    private readonly sms: SmsProviderService,
  ) {}

  async send(orgId: string, user: AuthUser, input: BandSmsInput): Promise<BandSmsReply> {
    const of = input.agent === undefined ? '' : input.agent === NO_AGENT ? ' who have no agent' : ` of agent ${input.agent}`;
    // "the customers 0–7 days without credit of agent AG-1"
    const band = `${input.bucket === 'all' ? 'all the customers' : `the customers ${COLLECTION_BUCKET_LABELS[input.bucket]}`} without credit${of}`;
    if (!input.dry_run && !(await this.sms.routeFor(orgId))) {
      throw Errors.conflict('No SMS provider is set up to send it: an owner or admin sets one in Settings → SMS Provider');
    }
    const accounts = await this.collections.band(orgId, { bucket: input.bucket, agent: input.agent }, MAX_BAND_SMS);
    if (accounts === null) {
      throw Errors.conflict(
        `More than ${MAX_BAND_SMS.toLocaleString('en')} devices are in this band: text a narrower band (by days without credit) at a time`,
      );
    }
    const country = await phoneCountry(this.database.query, orgId);
    const texts: { item_id: number; serial_number: string; customer_name: string; recipient_number: string; text: string; parts: number }[] = [];
    let skipped = 0;
    let optedOut = 0;
    let underRepair = 0;
    for (const a of accounts) {
      // A device being repaired: its customer is not asked to pay for it until it works (README "Service tickets").
      if (a.open_ticket) {
        underRepair++;
        continue;
      }
      // A customer who texted STOP gets nothing they did not ask for (README "Texts a customer can stop").
      if (a.sms_opted_out) {
        optedOut++;
        continue;
      }
      const phone = a.phone_number ? normalizePhone(a.phone_number, country) : null;
      if (!phone) {
        skipped++;
        continue;
      }
      const text = fillPlaceholders(input.text, {
        name: a.customer_name.trim().split(/\s+/)[0] ?? '',
        full_name: a.customer_name.trim(),
        serial: a.serial_number,
        days: String(a.days_without_credit),
        remaining: amount(a.currency, a.remaining),
        daily_price: amount(a.currency, a.daily_price),
      });
      const { parts } = smsParts(text);
      if (parts > MAX_SMS_PARTS) {
        throw Errors.badRequest(
          'text',
          `filled in for device ${a.serial_number} (${a.customer_name}) it is ${parts} SMS: it must fit in ${MAX_SMS_PARTS} for every customer`,
        );
      }
      texts.push({ item_id: a.item_id, serial_number: a.serial_number, customer_name: a.customer_name, recipient_number: phone, text, parts });
    }
    const parts = texts.reduce((n, t) => n + t.parts, 0);
    const sample = texts.slice(0, SAMPLE).map(({ item_id: _id, ...t }) => t);
    const base = { bucket: input.bucket, agent: input.agent ?? null, dry_run: input.dry_run, recipients: texts.length, skipped_no_phone: skipped, skipped_opted_out: optedOut, skipped_open_ticket: underRepair, parts, sample };
    if (input.dry_run || !texts.length) {
      const what = `${texts.length.toLocaleString('en')} SMS${parts > texts.length ? ` (${parts.toLocaleString('en')} parts)` : ''} to ${band}`;
      return { ...base, queued: 0, message: input.dry_run ? `Would send ${what}` : `Nothing to send: no customer of this band has a phone number and takes texts` };
    }
    const description = `SMS to ${texts.length} devices (${band}) by ${user.username}: ${input.text}`;
    await this.database.execute(Prisma.sql`
      WITH m AS (
        INSERT INTO messages (organization_id, forwarded_message, recipient_number, delivery_status, item_id, status, sent_by)
        SELECT ${orgId}, t.text, t.phone, 'queued'::"DeliveryStatus", t.item_id, 'processed'::"MessageStatus", ${user.username}
        FROM unnest(${texts.map((t) => t.text)}::text[], ${texts.map((t) => t.recipient_number)}::text[], ${texts.map((t) => t.item_id)}::int[])
             AS t(text, phone, item_id)
        RETURNING 1
      )
      INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
      SELECT ${orgId}, ${user.user_id}::int, ${user.username}, 'collections.sms_sent', 'item', NULL, ${description.slice(0, 1000)},
             jsonb_build_object('bucket', ${input.bucket}::text, 'agent', ${input.agent ?? null}::text, 'text', ${input.text}::text, 'queued', (SELECT count(*) FROM m),
                                'parts', ${parts}::int, 'skipped_no_phone', ${skipped}::int, 'skipped_opted_out', ${optedOut}::int,
                                'skipped_open_ticket', ${underRepair}::int)`);
    return { ...base, queued: texts.length, message: `${texts.length.toLocaleString('en')} SMS queued to ${band}` };
  }
}
