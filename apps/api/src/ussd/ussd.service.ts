import { HttpException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import {
  TICKET_CATEGORY_LABELS,
  type UssdOutcome,
  type UssdSession,
  type UssdSessionsReply,
  type UssdSettingsReply,
  type UssdTryReply,
  type ZUssdRequestSchema,
  type ZUssdSessionsQuerySchema,
  type ZUssdTryInputSchema,
} from '@kidogo/contracts';
import {
  normalizePhone,
  replyLanguage,
  USSD_ID_TRIES,
  USSD_MAX_SCREEN,
  ussdAnswers,
  ussdIdentityText,
  ussdMenu,
  ussdRefusedText,
  ussdTicketText,
  type ReplyLanguage,
  type UssdDevice,
  type UssdScreen,
} from '@kidogo/mobile-money';
import type { z } from 'zod';
import { Prisma } from '../generated/prisma/client.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Calendar } from '../common/calendar.js';
import { randomToken, SecretBox, sha256 } from '../common/crypto.js';
import type { AuthUser } from '../common/tenancy.js';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { customerDevices } from '../customers/customer-devices.js';
import { PaymentRequestsService } from '../mpesa-express/payment-requests.service.js';
import { SmsProviderService } from '../settings/sms-provider.service.js';
import { TicketsService } from '../tickets/tickets.service.js';

/** Where the gateway posts each step: PUBLIC_URL + this + the organization's key. */
export const USSD_PATH = '/payg/external/ussd/';
/** The one answer for an address that is no organization's menu. */
export const USSD_NOT_FOUND = 'No USSD menu has this address';

type UssdRequest = z.output<typeof ZUssdRequestSchema>;

interface Org {
  organization_id: string;
  name: string | null;
  status: string;
  ussd_enabled_at: Date | null;
  reply_language: string;
  phone_country_code: string;
}

interface Caller {
  customer_id: number;
  customer_name: string;
  phone_contact: string | null;
  id_number: string | null;
  preferred_language: string;
}

/** A step worked out: the screen, and what the session row keeps of it. */
interface Step {
  end: boolean;
  text: string;
  outcome: UssdOutcome;
  customerId: number | null;
  detail: string | null;
  /** What a try would have done here (a real step does it). */
  would: string | null;
}

/** A customer's preferred language, when it is one the menu speaks other than the default English. */
const PREFERRED_LANGUAGES: Record<string, ReplyLanguage | undefined> = { Swahili: 'sw', French: 'fr' };

/** ID numbers as customers type them: case, spaces and dashes aside. */
const idKey = (v: string) => v.toUpperCase().replace(/[\s-]/g, '');

/**
 * The customers' USSD menu (README "USSD menu"): the organization's address for its gateway, turned on and off by
 * owners and admins, and each step of a session, worked out again from the answers the gateway posts (the menu keeps
 * no state between steps, so any API process answers any step). Each session is kept, one row, for Settings.
 */
@Injectable()
export class UssdService {
  private readonly logger = new Logger('Ussd');

  constructor(
    private readonly database: DatabaseService,
    private readonly box: SecretBox,
    private readonly audit: AuditService,
    private readonly calendar: Calendar,
    private readonly requests: PaymentRequestsService,
    private readonly tickets: TicketsService,
    private readonly sms: SmsProviderService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  // ------------------------------------------------------------------ settings

  /** The address to give the gateway: the full URL when PUBLIC_URL is set, else its path (after this server's own address). */
  private address(key: string): string {
    return `${this.config.publicUrl ?? ''}${USSD_PATH}${key}`;
  }

  async settings(orgId: string, message?: string): Promise<UssdSettingsReply> {
    const [[org], [stats], [last]] = await Promise.all([
      this.database.query<{ ussd_key_enc: string | null; ussd_enabled_at: Date | null; ussd_enabled_by: string | null }>(Prisma.sql`
        SELECT ussd_key_enc, ussd_enabled_at, ussd_enabled_by FROM organizations WHERE organization_id = ${orgId}`),
      this.database.query<{ sessions: number; customers: number }>(Prisma.sql`
        SELECT count(*)::int AS sessions, count(DISTINCT customer_id)::int AS customers FROM ussd_sessions
        WHERE organization_id = ${orgId} AND started_at > now() - interval '7 days'`),
      this.database.query<{ service_code: string | null; updated_at: Date }>(Prisma.sql`
        SELECT service_code, updated_at FROM ussd_sessions WHERE organization_id = ${orgId}
        ORDER BY ussd_session_id DESC LIMIT 1`),
    ]);
    if (!org) throw new NotFoundException({ detail: 'Organization not found', message: 'Organization not found' });
    const on = org.ussd_enabled_at !== null && org.ussd_key_enc !== null;
    return {
      data: {
        enabled: on,
        callback_url: on ? this.address(this.box.open(org.ussd_key_enc!)) : null,
        enabled_at: org.ussd_enabled_at?.toISOString() ?? null,
        enabled_by: on ? org.ussd_enabled_by : null,
        sessions_7d: stats?.sessions ?? 0,
        customers_7d: stats?.customers ?? 0,
        last_session_at: last?.updated_at.toISOString() ?? null,
        service_code: last?.service_code ?? null,
      },
      ...(message ? { message } : {}),
    };
  }

  /** Turns the menu on (its address made the first time, kept after) or off (the address answers that it is not available). */
  async update(orgId: string, user: AuthUser, enabled: boolean): Promise<UssdSettingsReply> {
    const key = `ussd_${randomToken(24)}`;
    const changed = await this.database.transaction(async (run) => {
      const [org] = await run<{ on: boolean }>(Prisma.sql`
        SELECT ussd_enabled_at IS NOT NULL AS on FROM organizations WHERE organization_id = ${orgId} FOR UPDATE`);
      if (!org || org.on === enabled) return false;
      await run(Prisma.sql`
        UPDATE organizations SET
          ussd_key_hash = coalesce(ussd_key_hash, ${sha256(key)}), ussd_key_enc = coalesce(ussd_key_enc, ${this.box.seal(key)}),
          ussd_enabled_at = CASE WHEN ${enabled} THEN now() END, ussd_enabled_by = CASE WHEN ${enabled} THEN ${user.username}::text END
        WHERE organization_id = ${orgId}`);
      await run(Prisma.sql`
        INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description)
        VALUES (${orgId}, ${user.user_id}::int, ${user.username}, ${enabled ? 'ussd.enabled' : 'ussd.disabled'}, 'organization', ${orgId},
                ${enabled ? `USSD menu turned on by ${user.username}` : `USSD menu turned off by ${user.username}: its address answers that it is not available`})`);
      return true;
    });
    const message = enabled
      ? changed
        ? 'The USSD menu is on: give its address to your USSD gateway as the callback URL'
        : 'The USSD menu is already on'
      : changed
        ? 'The USSD menu is off: customers who dial it are told it is not available'
        : 'The USSD menu is already off';
    return this.settings(orgId, message);
  }

  /** A new address: the old one stops answering at once, so the gateway must be given the new one. */
  async rotate(orgId: string, user: AuthUser): Promise<UssdSettingsReply> {
    const key = `ussd_${randomToken(24)}`;
    await this.database.transaction(async (run) => {
      await run(Prisma.sql`
        UPDATE organizations SET ussd_key_hash = ${sha256(key)}, ussd_key_enc = ${this.box.seal(key)} WHERE organization_id = ${orgId}`);
      await run(Prisma.sql`
        INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description)
        VALUES (${orgId}, ${user.user_id}::int, ${user.username}, 'ussd.address_replaced', 'organization', ${orgId},
                ${`USSD menu address replaced by ${user.username}; the old address no longer answers`})`);
    });
    return this.settings(orgId, 'A new address is made: the old one no longer answers, so give this one to your USSD gateway');
  }

  /** One customer's sessions, newest first (their page): a 404 for a customer not of the organization. */
  async customerSessions(orgId: string, customerId: number, q: z.output<typeof ZUssdSessionsQuerySchema>): Promise<UssdSessionsReply> {
    const [customer] = await this.database.query<{ customer_id: number }>(Prisma.sql`
      SELECT customer_id FROM customers WHERE organization_id = ${orgId} AND customer_id = ${customerId}::int`);
    if (!customer) throw new NotFoundException({ detail: 'Customer not found', message: 'Customer not found' });
    return this.sessions(orgId, q, customerId);
  }

  /** The sessions, newest first, with the customer each phone named; only `customerId`'s when given. */
  async sessions(orgId: string, q: z.output<typeof ZUssdSessionsQuerySchema>, customerId?: number): Promise<UssdSessionsReply> {
    const rows = await this.database.query<{
      id: number;
      session_id: string;
      phone_number: string;
      customer_id: number | null;
      customer_name: string | null;
      service_code: string | null;
      steps: number;
      outcome: UssdOutcome;
      detail: string | null;
      started_at: Date;
      updated_at: Date;
    }>(Prisma.sql`
      SELECT s.ussd_session_id AS id, s.session_id, s.phone_number, s.customer_id, c.customer_name, s.service_code, s.steps, s.outcome,
             s.detail, s.started_at, s.updated_at
      FROM ussd_sessions s
      LEFT JOIN customers c ON c.organization_id = s.organization_id AND c.customer_id = s.customer_id
      WHERE s.organization_id = ${orgId} ${q.before ? Prisma.sql`AND s.ussd_session_id < ${q.before}::int` : Prisma.empty}
        ${customerId === undefined ? Prisma.empty : Prisma.sql`AND s.customer_id = ${customerId}::int`}
      ORDER BY s.ussd_session_id DESC LIMIT ${q.limit + 1}::int`);
    const page = rows.slice(0, q.limit);
    return {
      data: page.map(({ id: _id, ...r }): UssdSession => ({ ...r, started_at: r.started_at.toISOString(), updated_at: r.updated_at.toISOString() })),
      next_before: rows.length > q.limit ? page[page.length - 1]!.id : null,
    };
  }

  // ------------------------------------------------------------------ sessions

  /**
   * One step of a session, posted by the gateway to the organization's address: "CON …" (a screen waiting for an
   * answer) or "END …". An address that is no organization's is a 404; a menu turned off, or an organization
   * suspended, answers END that the service is not available (the customer reads it on their phone).
   */
  async answer(key: string, body: UssdRequest): Promise<string> {
    const [org] = await this.database.prepared<Org>(Prisma.sql`
      SELECT organization_id, name, status::text AS status, ussd_enabled_at, reply_language, phone_country_code
      FROM organizations WHERE ussd_key_hash = ${sha256(key)}`);
    if (!org) throw new NotFoundException({ detail: USSD_NOT_FOUND, message: USSD_NOT_FOUND });
    const orgId = org.organization_id;
    const language = replyLanguage(org.reply_language);
    const [kept] = await this.database.query<{ acted_text: string | null; reply: string | null }>(Prisma.sql`
      SELECT acted_text, reply FROM ussd_sessions WHERE organization_id = ${orgId} AND session_id = ${body.sessionId}`);
    // A step posted again after it was acted on (the gateway retried): the same screen, nothing done twice.
    if (kept?.acted_text === body.text && kept.reply) return kept.reply;
    let step: Step;
    if (org.status !== 'active' || !org.ussd_enabled_at) {
      step = { end: true, text: ussdIdentityText(language, 'unavailable', ''), outcome: 'unavailable', customerId: null, detail: null, would: null };
    } else {
      step = await this.step(org, language, body.phoneNumber, body.text, false, body.sessionId);
    }
    const reply = `${step.end ? 'END' : 'CON'} ${step.text}`.slice(0, 4 + USSD_MAX_SCREEN);
    await this.database.query(Prisma.sql`
      INSERT INTO ussd_sessions (organization_id, session_id, phone_number, customer_id, service_code, network_code, steps, outcome, detail, reply)
      VALUES (${orgId}, ${body.sessionId}, ${body.phoneNumber}, ${step.customerId}::int, ${body.serviceCode ?? null}, ${body.networkCode ?? null},
              ${ussdAnswers(body.text).length}::int, ${step.outcome}, ${step.detail?.slice(0, 300) ?? null}, ${reply})
      ON CONFLICT (organization_id, session_id) DO UPDATE SET
        customer_id = coalesce(EXCLUDED.customer_id, ussd_sessions.customer_id), steps = EXCLUDED.steps, outcome = EXCLUDED.outcome,
        service_code = coalesce(ussd_sessions.service_code, EXCLUDED.service_code), network_code = coalesce(ussd_sessions.network_code, EXCLUDED.network_code),
        detail = coalesce(EXCLUDED.detail, ussd_sessions.detail), reply = EXCLUDED.reply, updated_at = now()`);
    return reply;
  }

  /** The menu as `phone_number` would see it after `text`, nothing sent, asked or opened: Settings' Try the Menu. */
  async try(orgId: string, input: z.output<typeof ZUssdTryInputSchema>): Promise<UssdTryReply> {
    const [org] = await this.database.query<Org>(Prisma.sql`
      SELECT organization_id, name, status::text AS status, ussd_enabled_at, reply_language, phone_country_code
      FROM organizations WHERE organization_id = ${orgId}`);
    if (!org) throw new NotFoundException({ detail: 'Organization not found', message: 'Organization not found' });
    const step = await this.step(org, replyLanguage(org.reply_language), input.phone_number, input.text, true, null);
    return { screen: step.text, end: step.end, outcome: step.outcome, would: step.would };
  }

  /** Who is calling, then the menu; a real step (not `dry`) carries out what its last screen asks, once per session. */
  private async step(org: Org, orgLanguage: ReplyLanguage, phoneNumber: string, text: string, dry: boolean, sessionId: string | null): Promise<Step> {
    let language = orgLanguage;
    const orgId = org.organization_id;
    const orgName = org.name ?? orgId;
    const phone = normalizePhone(phoneNumber, org.phone_country_code);
    const answers = ussdAnswers(text);
    const stop = (kind: 'not_registered' | 'not_found', outcome: UssdOutcome, customerId: number | null = null): Step => ({
      end: true,
      text: ussdIdentityText(language, kind, orgName),
      outcome,
      customerId,
      detail: null,
      would: null,
    });
    if (!phone) return stop('not_registered', 'not_registered');
    const callers = await this.database.query<Caller>(Prisma.sql`
      SELECT customer_id, customer_name, phone_contact, id_number, preferred_language FROM customers
      WHERE organization_id = ${orgId} AND phone_normalized = ${phone}
      ORDER BY customer_id LIMIT 20`);
    if (!callers.length) return stop('not_registered', 'not_registered');
    let caller = callers.length === 1 ? callers[0]! : null;
    let rest = answers;
    if (!caller) {
      // A phone on several accounts (a family's): the first answer names the account by its ID number.
      let wrong = 0;
      for (let i = 0; i < answers.length && !caller; i++) {
        caller = callers.find((c) => c.id_number && idKey(c.id_number) === idKey(answers[i]!)) ?? null;
        if (caller) rest = answers.slice(i + 1);
        else if (++wrong >= USSD_ID_TRIES) return stop('not_found', 'not_identified');
      }
      if (!caller) {
        return { end: false, text: ussdIdentityText(language, wrong ? 'wrong_id' : 'ask_id', orgName), outcome: 'menu', customerId: null, detail: null, would: null };
      }
    }
    // The customer's own language when their record names Kiswahili or French; else the organization's for its texts
    // (English is every record's default, so it says nothing of a choice).
    const preferred = PREFERRED_LANGUAGES[caller.preferred_language];
    if (preferred) language = preferred;
    const devices = await this.devices(orgId, caller.customer_id);
    const [pay, route] = await Promise.all([this.requests.payWith(orgId, caller.phone_contact), this.sms.routeFor(orgId)]);
    const screen = ussdMenu(
      {
        language,
        organizationName: orgName,
        customerName: caller.customer_name,
        devices: devices.map((d) => d.menu),
        pay: pay.map((p) => ({ provider: p.provider, label: p.label, currency: p.currency, maxAmount: p.max_amount })),
        sms: route !== null,
      },
      rest,
    );
    const at: Step = {
      end: screen.end,
      text: screen.text,
      outcome: screen.outcome,
      customerId: caller.customer_id,
      detail: screen.serial,
      would: null,
    };
    if (!screen.action) {
      // A last screen that did nothing: a device paid off (Pay now), one without a code yet, or no device at all.
      if (screen.end && screen.serial && screen.outcome === 'pay') return { ...at, outcome: 'pay_refused', detail: `${screen.serial}: paid off` };
      if (screen.end && screen.serial && screen.outcome === 'code') return { ...at, detail: `${screen.serial}: no code yet` };
      return screen.end && !screen.serial && screen.outcome !== 'balance' ? { ...at, outcome: 'menu', detail: 'No device on the account' } : at;
    }
    const device = devices.find((d) => d.menu.serialNumber === screen.serial)!;
    if (!dry && !(await this.claim(orgId, sessionId!, phoneNumber, text))) {
      // Another process is acting on this very step (the gateway posted it twice at once): its screen is this one.
      return screen.action.kind === 'ticket' ? { ...at, text: ussdTicketText(language, null, device.menu.serialNumber, false) } : at;
    }
    return this.act(orgId, language, caller, device, screen, at, { dry, phone, sms: route !== null });
  }

  /** Claims a step's action for this request: false when it was claimed already (the same answers posted again). */
  private async claim(orgId: string, sessionId: string, phoneNumber: string, text: string): Promise<boolean> {
    const rows = await this.database.query(Prisma.sql`
      INSERT INTO ussd_sessions (organization_id, session_id, phone_number, outcome, acted_text)
      VALUES (${orgId}, ${sessionId}, ${phoneNumber}, 'menu', ${text})
      ON CONFLICT (organization_id, session_id) DO UPDATE SET acted_text = EXCLUDED.acted_text, updated_at = now()
        WHERE ussd_sessions.acted_text IS DISTINCT FROM EXCLUDED.acted_text
      RETURNING 1`);
    return rows.length > 0;
  }

  /** Does what the last screen asks: texts the code, asks the phone to pay, opens a ticket (a try only says so). */
  private async act(
    orgId: string,
    language: ReplyLanguage,
    caller: Caller,
    device: { itemId: number; menu: UssdDevice },
    screen: UssdScreen,
    at: Step,
    { dry, phone, sms: smsOn }: { dry: boolean; phone: string; sms: boolean },
  ): Promise<Step> {
    const action = screen.action!;
    const serial = device.menu.serialNumber;
    switch (action.kind) {
      case 'code': {
        if (!smsOn) return { ...at, detail: `${serial}: code shown` };
        const sms = `Kidogo: ${screen.text.split('\n')[0]}`;
        if (dry) return { ...at, would: `Text ${phone}: "${sms}"` };
        await this.database.query(Prisma.sql`
          INSERT INTO messages (organization_id, forwarded_message, recipient_number, delivery_status, item_id, status, sent_by)
          VALUES (${orgId}, ${sms}, ${phone}, 'queued'::"DeliveryStatus", ${device.itemId}::int, 'processed'::"MessageStatus", 'USSD')`);
        return { ...at, detail: `${serial}: code shown and texted` };
      }
      case 'pay': {
        const what = `${action.currency} ${action.amount} for ${serial} by ${action.label}`;
        if (dry) return { ...at, would: `Ask ${phone} to pay ${what}` };
        try {
          const { data } = await this.requests.create(
            orgId,
            { serial_number: serial, provider: action.provider as never, amount: action.amount, phone_number: undefined },
            null,
            caller.customer_id,
            'ussd',
          );
          return { ...at, outcome: 'pay', detail: `Payment request #${data.request_id}: ${what}` };
        } catch (e) {
          if (!(e instanceof HttpException)) throw e;
          const reason = (e.getResponse() as { detail?: unknown }).detail;
          const said = typeof reason === 'string' ? reason : e.message;
          this.logger.warn(`USSD payment ${orgId}/${serial} not asked for: ${said}`);
          return { ...at, text: ussdRefusedText(language, said), outcome: 'pay_refused', detail: `${what}: ${said}` };
        }
      }
      case 'ticket': {
        const label = TICKET_CATEGORY_LABELS[action.problem];
        if (dry) {
          return { ...at, text: ussdTicketText(language, 0, serial, false).replace('#0', '#(new)'), would: `Open a ticket for ${serial}: ${label} (or answer with one still open)` };
        }
        const { ticket, already } = await this.tickets.openForCustomer(orgId, {
          itemId: device.itemId,
          customerId: caller.customer_id,
          category: action.problem,
          description: `Reported by the customer by USSD from ${phone}: ${label}`,
          via: 'by USSD',
        });
        return { ...at, text: ussdTicketText(language, ticket.ticket_id, serial, already), detail: `Ticket #${ticket.ticket_id}${already ? ' (already open)' : ''}: ${serial}, ${label}` };
      }
    }
  }

  /** The caller's devices for the menu (not retired), first given first, each with its last code. */
  private async devices(orgId: string, customerId: number): Promise<Array<{ itemId: number; menu: UssdDevice }>> {
    const devices = await customerDevices(this.database.query, this.calendar, orgId, customerId);
    return devices.map((d) => ({ itemId: d.itemId, menu: { ...d.balance, dailyPrice: d.dailyPrice, lastCode: d.lastCode } }));
  }
}

