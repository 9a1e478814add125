import { Injectable } from '@nestjs/common';
import {
  daysToValue,
  generateToken,
  MAX_TOKEN_VALUE,
  type TokenType as OpenPaygoType,
} from '@kidogo/openpaygo';
import type {
  GenerateTokenByDaysInput,
  GenerateTokenInput,
  TokenKind,
  TokenLogList,
  TokenLogQuery,
  TokenReply,
  UpdateTokenCountInput,
  UpdateTokenCountReply,
} from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService, type Run, type ScopedClient } from '../database/database.service.js';
import { DeviceSecrets } from '../devices/device-secrets.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { toTokenLog } from './tokens.mapper.js';
import { webhookEventSql } from '../webhooks/webhook-events.js';
import { listTokenLogs } from './token-log-list.js';
import { expireOlderSql, lockItemsSql, serialWhere, tokenColumnsSql, tokenInsertsSql, type LockedItem, type PlannedToken } from './token-device.js';

export type { LockedItem, PlannedToken } from './token-device.js';

/** A transaction of the organization-guarded client, handed to services that write inside the caller's transaction. */
export type Tx = Omit<ScopedClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends' | '$use'>;

/**
 * Interactive Prisma transactions that wait for a busy row lock: the
 * defaults (2 s to get a connection, 5 s to finish) are too short.
 */
export const TX_OPTIONS = { maxWait: 20_000, timeout: 30_000 } as const;

export interface TokenSettings {
  restrictedDigitSet: boolean;
  extendedToken: boolean;
  valueDivider: number;
  /** Most days one token can carry: floor(995 / divider). */
  maxDaysPerToken: number;
}

const STANDARD: TokenSettings = { restrictedDigitSet: false, extendedToken: false, valueDivider: 1, maxDaysPerToken: MAX_TOKEN_VALUE };

/** The token.issued event's data: a code staff issued for a device. */
export function tokenIssuedData(item: LockedItem, t: PlannedToken, by: string): Record<string, unknown> {
  return {
    serial_number: item.serial_number,
    item_id: item.item_id,
    customer_id: item.is_assigned ? item.customer_id : null,
    token: t.token,
    token_type: t.kind,
    days: t.days,
    token_count: t.count,
    credit_until: item.credit_until?.toISOString() ?? null,
    issued_by: by,
  };
}

/** One token to make for a locked device. */
export interface TokenRequest {
  type: TokenKind;
  /** Days for add_time, activation and set_time. */
  days?: number;
  amountPaid?: string | null;
  /**
   * Issued by the payment rules for money received. Only such a token
   * activates the device's account: a staff token gives time, it does not
   * pay the plan's deposit and activation price.
   */
  byPayment?: boolean;
}

const OPENPAYGO_TYPE: Record<TokenKind, OpenPaygoType> = {
  add_time: 'ADD_TIME',
  activation: 'ADD_TIME',
  set_time: 'SET_TIME',
  unlock: 'DISABLE_PAYG',
  counter_sync: 'COUNTER_SYNC',
};

const DAY_MS = 86_400_000;
/** The count a device has used when it leaves the factory (the OpenPAYGO reference's starting_count). */
const FACTORY_COUNT = 1;

/** The device maker's token settings from the locked row; standard 9-digit tokens, divider 1, when the maker has none. */
export function settingsOf(item: LockedItem): TokenSettings {
  const valueDivider = Number(item.oem_value_divider);
  // No maker settings, or a divider no token could be made with (rows from before it was validated).
  if (item.oem_value_divider === null || !(valueDivider > 0)) return STANDARD;
  return {
    restrictedDigitSet: item.oem_restricted_digit_set === true,
    extendedToken: item.oem_extended_token === true,
    valueDivider,
    maxDaysPerToken: Math.max(0, Math.floor(MAX_TOKEN_VALUE / valueDivider + 1e-9)),
  };
}

/**
 * The one place tokens are made. Every caller (the token endpoints, the
 * payment pipeline) locks the device row in its transaction (lockItemsSql),
 * makes the tokens here from the stored count, and writes the token log rows
 * (unique per device and count) with the new count in one statement, so a
 * count is never issued twice and concurrent requests get consecutive
 * counts. Raw SQL on one connection (DatabaseService.transaction): three or
 * four round trips per token instead of a dozen Prisma queries.
 */
@Injectable()
export class TokensService {
  constructor(
    private readonly database: DatabaseService,
    private readonly secrets: DeviceSecrets,
  ) {}

  /** Locks the device with this serial (exact, else ignoring case, spaces and dashes when that names one device); 404 otherwise. */
  async lockBySerial(run: Run, orgId: string, serialNumber: string, opts: { nextPaymentId?: boolean } = {}): Promise<LockedItem> {
    const s = serialWhere(serialNumber);
    const rows = await run<LockedItem>(lockItemsSql(orgId, s.where, { order: s.order, limit: 2, ...opts }));
    const exact = rows.find((r) => r.serial_number === s.exact);
    if (exact) return exact;
    if (rows.length === 1) return rows[0]!;
    throw Errors.notFound('Device');
  }

  /** Locks the device by id until the transaction ends. */
  async lockItem(run: Run, orgId: string, itemId: number, opts: { nextPaymentId?: boolean } = {}): Promise<LockedItem> {
    const [item] = await run<LockedItem>(lockItemsSql(orgId, Prisma.sql`i.item_id = ${itemId}::int`, opts));
    if (!item) throw Errors.notFound('Device');
    return item;
  }

  /**
   * Makes the tokens, one after the other from the device's stored count,
   * and moves the device's count, credit date, activation and payoff on the
   * LockedItem (the caller writes them with tokenColumnsSql). Throws 409 for
   * a retired device and 400 (naming `daysField`) for days that do not fit
   * one token.
   */
  plan(item: LockedItem, requests: TokenRequest[], daysField = 'days'): PlannedToken[] {
    if (item.status === 'retired') throw Errors.conflict(`Device ${item.serial_number} is retired: no token can be issued`);
    if (!requests.length) return [];
    const settings = settingsOf(item);
    const secret = this.secrets.open(item);
    const now = new Date();
    return requests.map((req) => {
      const kind = req.type;
      const days = kind === 'unlock' || kind === 'counter_sync' ? 0 : (req.days ?? 0);
      const type = OPENPAYGO_TYPE[kind];
      let value: number | undefined;
      if (type === 'ADD_TIME' || type === 'SET_TIME') {
        value = daysToValue(days, settings.valueDivider);
        if (value > MAX_TOKEN_VALUE) {
          throw Errors.badRequest(
            daysField,
            `must be at most ${settings.maxDaysPerToken} for this device (its maker's value divider is ${settings.valueDivider}); issue several tokens for longer periods`,
          );
        }
      }
      const generated = generateToken({
        secretKey: secret.secretKey,
        startingCode: secret.startingCode,
        restrictedDigitSet: settings.restrictedDigitSet,
        extendedToken: settings.extendedToken,
        // A device fresh from the factory has used count 1 (OpenPAYGO's starting count): a count below it
        // (devices recorded before migration 0021, or set to 0 by hand) would give an odd token count 1 it refuses.
        lastCount: Math.max(item.token_count, FACTORY_COUNT),
        type,
        value,
      });
      item.token_count = generated.count;
      if (kind === 'add_time' || kind === 'activation') {
        const from = item.credit_until && item.credit_until > now ? item.credit_until : now;
        item.credit_until = new Date(from.getTime() + days * DAY_MS);
        if (kind === 'activation' && req.byPayment && !item.activated_at) item.activated_at = now;
      } else if (kind === 'set_time') {
        item.credit_until = new Date(now.getTime() + days * DAY_MS);
      } else if (kind === 'unlock') {
        item.paid_off_at = now;
        item.credit_until = null;
      }
      return { kind, token: generated.token, count: generated.count, value: generated.value, days, amountPaid: req.amountPaid ?? null };
    });
  }

  /** One token through the endpoints: lock, make, write the log, the audit entry and the device in one statement. */
  private issueOne(
    orgId: string,
    user: AuthUser,
    serial: string,
    req: TokenRequest & { activationIfFirst?: boolean },
    daysField: string,
  ): Promise<TokenReply> {
    return this.database.transaction((run) => this.issueIn(run, orgId, user, serial, req, daysField));
  }

  /**
   * issueOne inside the caller's transaction `run` (a service ticket resolved with free days): the token commits or
   * rolls back with the caller's change.
   */
  async issueIn(
    run: Run,
    orgId: string,
    user: AuthUser,
    serial: string,
    req: TokenRequest & { activationIfFirst?: boolean },
    daysField: string,
  ): Promise<TokenReply> {
    const item = await this.lockBySerial(run, orgId, serial);
    let type = req.type;
    if (type === 'add_time' && req.activationIfFirst && item.is_assigned && item.assigned_at) {
      // Read after the lock: a token issued by a request that held it is visible now.
      const since = await run(Prisma.sql`
        SELECT 1 FROM token_logs WHERE organization_id = ${orgId} AND item_id = ${item.item_id}::int
          AND created_at >= ${item.assigned_at.toISOString()}::timestamptz LIMIT 1`);
      if (!since.length) type = 'activation';
    }
    const [t] = this.plan(item, [{ ...req, type }], daysField);
    const writes = tokenInsertsSql({ orgId, item, generatedBy: user.username, actor: user, paymentId: null }, [t!], null)!;
    const event = webhookEventSql(orgId, 'token.issued', tokenIssuedData(item, t!, user.username));
    // Days given to the device's holder without a payment: their plan does not expect them paid for (README "Repayment standing").
    const free = item.is_assigned && (t!.kind === 'add_time' || t!.kind === 'activation') ? Math.ceil(t!.days) : 0;
    await run(Prisma.sql`
      WITH tl AS (${writes.logs} RETURNING 1), al AS (${writes.audits} RETURNING 1), ex AS (${writes.expire} RETURNING 1),
           wh AS (${event} RETURNING 1)
      UPDATE items SET ${tokenColumnsSql(item)}, free_days = free_days + ${free}::int, updated_at = now()
      WHERE organization_id = ${orgId} AND item_id = ${item.item_id}::int`);
    return {
      code_token: t!.token,
      code_type: t!.kind,
      days: t!.days,
      token_count: t!.count,
      serial_number: item.serial_number,
      isOrganizationSuspended: false,
    };
  }

  generateByDays(orgId: string, user: AuthUser, input: GenerateTokenByDaysInput): Promise<TokenReply> {
    return this.issueOne(orgId, user, input.serial_number, { type: 'add_time', days: input.number_of_days, activationIfFirst: true }, 'number_of_days');
  }

  generate(orgId: string, user: AuthUser, input: GenerateTokenInput): Promise<TokenReply> {
    return this.issueOne(orgId, user, input.serial_number, { type: input.type, days: input.value ?? 0 }, 'value');
  }

  updateCount(orgId: string, user: AuthUser, input: UpdateTokenCountInput): Promise<UpdateTokenCountReply> {
    return this.database.transaction(async (run) => {
      const item = await this.lockBySerial(run, orgId, input.serial_number);
      const [highest] = await run<{ issued: number | null }>(Prisma.sql`
        SELECT max(token_count)::int AS issued FROM token_logs WHERE organization_id = ${orgId} AND item_id = ${item.item_id}::int`);
      const issued = highest?.issued ?? null;
      if (issued !== null && input.new_token_count < issued) {
        throw Errors.conflict(
          `new_token_count: tokens up to count ${issued} were already issued for device ${item.serial_number}; a count can never be issued twice, so it cannot go below ${issued}`,
        );
      }
      const description = `Token count of device ${item.serial_number} changed from ${item.token_count} to ${input.new_token_count}${input.reason ? `: ${input.reason}` : ''}`;
      const metadata = { serial_number: item.serial_number, old_token_count: item.token_count, new_token_count: input.new_token_count, reason: input.reason ?? null };
      await run(Prisma.sql`
        WITH al AS (
          INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
          VALUES (${orgId}, ${user.user_id}::int, ${user.username}, 'token.count_update', 'item', ${String(item.item_id)}, ${description}, ${JSON.stringify(metadata)}::jsonb)
          RETURNING 1
        ),
        -- Tokens the device no longer takes once it is at the new count.
        ex AS (${expireOlderSql(orgId, item.item_id, item.token_count, { top: input.new_token_count, barrier: null }, null)} RETURNING 1)
        UPDATE items SET token_count = ${input.new_token_count}::int, updated_at = now()
        WHERE organization_id = ${orgId} AND item_id = ${item.item_id}::int`);
      return {
        message: 'Token count updated successfully!',
        serial_number: item.serial_number,
        old_token_count: item.token_count,
        new_token_count: input.new_token_count,
      };
    });
  }

  /** Newest first; see listTokenLogs for how deep pages and searches stay fast. */
  async listLogs(orgId: string, query: TokenLogQuery): Promise<TokenLogList> {
    const { rows, total } = await listTokenLogs(this.database.runs, orgId, query);
    return { data: { items: rows.map((r) => toTokenLog(r)), total } };
  }
}
