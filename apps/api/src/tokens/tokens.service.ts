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
import { DatabaseService, type ScopedClient } from '../database/database.service.js';
import { DeviceSecrets } from '../devices/device-secrets.js';
import { AuditService } from '../audit/audit.service.js';
import { Errors } from '../common/errors.js';
import { likePattern } from '../common/pagination.js';
import type { AuthUser } from '../common/tenancy.js';
import { toTokenLog, type TokenLogRow } from './tokens.mapper.js';

/** A transaction of the organization-guarded client, handed to services that write inside the caller's transaction. */
export type Tx = Omit<ScopedClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends' | '$use'>;

/**
 * AuditService.record is typed for the unguarded client's transaction; the
 * guarded one is the same connection with a query check on top.
 */

/**
 * Interactive transactions wait for the row lock of a busy device: fifty
 * requests for one device queue behind each other, so the defaults (2 s to get
 * a connection, 5 s to finish) are too short.
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

export interface IssueRequest {
  orgId: string;
  itemId: number;
  type: TokenKind;
  /** Days for add_time, activation and set_time. */
  days?: number;
  /** add_time becomes activation when it is the first token since the device was assigned. */
  activationIfFirst?: boolean;
  generatedBy: string;
  actor?: Pick<AuthUser, 'user_id' | 'username'> | null;
  paymentId?: number | null;
  amountPaid?: string | null;
  /** The request field named in a 400 when the days do not fit one token. */
  daysField?: string;
  /**
   * The device as the caller already locked it in this transaction (saves a
   * round trip); issue() updates it in place so the next token sees the new count.
   */
  locked?: LockedItem;
}

export interface IssuedToken {
  code_token: string;
  code_type: TokenKind;
  days: number;
  token_count: number;
  serial_number: string;
  token_log_id: number;
}

/** The device row as locked, with what the token and payment code need of it and of its customer. */
export interface LockedItem {
  item_id: number;
  serial_number: string;
  status: string;
  product_oem: string | null;
  is_assigned: boolean;
  customer_id: number | null;
  customer_name: string | null;
  customer_phone: string | null;
  customer_phone_normalized: string | null;
  assigned_at: Date | null;
  secret_key_enc: string;
  starting_code_enc: string;
  token_count: number;
  credit_until: Date | null;
  activated_at: Date | null;
  paid_off_at: Date | null;
  price: Prisma.Decimal;
  credit: Prisma.Decimal;
  total_paid: Prisma.Decimal;
}

const OPENPAYGO_TYPE: Record<TokenKind, OpenPaygoType> = {
  add_time: 'ADD_TIME',
  activation: 'ADD_TIME',
  set_time: 'SET_TIME',
  unlock: 'DISABLE_PAYG',
  counter_sync: 'COUNTER_SYNC',
};

const DAY_MS = 86_400_000;

/**
 * The one place tokens are made. Every caller (the token endpoints, the
 * payment pipeline) goes through issue() inside its own transaction: the
 * device row is locked, the next count computed from the stored one, the log
 * row written (unique per device and count) and the count stored, so a count
 * is never issued twice and concurrent requests get consecutive counts.
 */
@Injectable()
export class TokensService {
  constructor(
    private readonly database: DatabaseService,
    private readonly secrets: DeviceSecrets,
    private readonly audit: AuditService,
  ) {}

  /** The device's id by serial number (exact, else ignoring case, spaces and dashes when that names one device); 404 otherwise. */
  async resolveItemId(tx: Tx, orgId: string, serialNumber: string): Promise<number> {
    const exact = await tx.item.findUnique({
      where: { organization_id_serial_number: { organization_id: orgId, serial_number: serialNumber.trim() } },
      select: { id: true },
    });
    if (exact) return exact.id;
    const normalized = serialNumber.toUpperCase().replace(/[\s-]/g, '');
    const loose = await tx.item.findMany({
      where: { organization_id: orgId, serial_normalized: normalized },
      select: { id: true },
      take: 2,
    });
    if (loose.length === 1) return loose[0]!.id;
    throw Errors.notFound('Device');
  }

  /** Locks the device row until the transaction ends. */
  async lockItem(tx: Tx, orgId: string, itemId: number): Promise<LockedItem> {
    const rows = await tx.$queryRaw<LockedItem[]>`
      SELECT i.item_id, i.serial_number, i.status::text AS status, i.product_oem, i.is_assigned, i.customer_id,
             c.customer_name, c.phone_contact AS customer_phone, c.phone_normalized AS customer_phone_normalized,
             i.assigned_at, i.secret_key_enc, i.starting_code_enc, i.token_count, i.credit_until, i.activated_at,
             i.paid_off_at, i.price, i.credit, i.total_paid
      FROM items i
      LEFT JOIN customers c ON c.organization_id = i.organization_id AND c.customer_id = i.customer_id
      WHERE i.organization_id = ${orgId} AND i.item_id = ${itemId}::int
      FOR UPDATE OF i`;
    const item = rows[0];
    if (!item) throw Errors.notFound('Device');
    return item;
  }

  /** The device maker's token settings; standard 9-digit tokens, divider 1, when the maker has none. */
  async settingsFor(tx: Tx, orgId: string, productOem: string | null): Promise<TokenSettings> {
    if (!productOem) return STANDARD;
    const row = await tx.productOemConfig.findUnique({
      where: { organization_id_product_oem: { organization_id: orgId, product_oem: productOem } },
    });
    if (!row) return STANDARD;
    const valueDivider = Number(row.value_divider);
    return {
      restrictedDigitSet: row.restricted_digit_set,
      extendedToken: row.extended_token,
      valueDivider,
      maxDaysPerToken: Math.max(0, Math.floor(MAX_TOKEN_VALUE / valueDivider + 1e-9)),
    };
  }

  async issue(tx: Tx, req: IssueRequest): Promise<IssuedToken> {
    const item = req.locked && req.locked.item_id === req.itemId ? req.locked : await this.lockItem(tx, req.orgId, req.itemId);
    if (item.status === 'retired') throw Errors.conflict(`Device ${item.serial_number} is retired: no token can be issued`);
    let kind = req.type;
    if (kind === 'add_time' && req.activationIfFirst && item.is_assigned && item.assigned_at) {
      const since = await tx.tokenLog.findFirst({
        where: { organization_id: req.orgId, item_id: item.item_id, created_at: { gte: item.assigned_at } },
        select: { id: true },
      });
      if (!since) kind = 'activation';
    }
    const settings = await this.settingsFor(tx, req.orgId, item.product_oem);
    const days = kind === 'unlock' || kind === 'counter_sync' ? 0 : (req.days ?? 0);
    const type = OPENPAYGO_TYPE[kind];
    let value: number | undefined;
    if (type === 'ADD_TIME' || type === 'SET_TIME') {
      value = daysToValue(days, settings.valueDivider);
      if (value > MAX_TOKEN_VALUE) {
        throw Errors.badRequest(
          req.daysField ?? 'days',
          `must be at most ${settings.maxDaysPerToken} for this device (its maker's value divider is ${settings.valueDivider}); issue several tokens for longer periods`,
        );
      }
    }
    const secret = this.secrets.open(item);
    const generated = generateToken({
      secretKey: secret.secretKey,
      startingCode: secret.startingCode,
      restrictedDigitSet: settings.restrictedDigitSet,
      extendedToken: settings.extendedToken,
      lastCount: item.token_count,
      type,
      value,
    });

    const log = await tx.tokenLog.create({
      data: {
        organization_id: req.orgId,
        item_id: item.item_id,
        serial_number: item.serial_number,
        customer_id: item.is_assigned ? item.customer_id : null,
        customer_name: item.is_assigned ? item.customer_name : null,
        payment_id: req.paymentId ?? null,
        token_value: generated.token,
        token_type: kind,
        token_count: generated.count,
        value: generated.value,
        days_generated: days,
        amount_paid: req.amountPaid ?? null,
        was_assigned: item.is_assigned,
        generated_by: req.generatedBy,
      },
      select: { id: true },
    });

    const now = new Date();
    const update: Prisma.ItemUpdateManyMutationInput = { token_count: generated.count };
    if (kind === 'add_time' || kind === 'activation') {
      const from = item.credit_until && item.credit_until > now ? item.credit_until : now;
      update.credit_until = new Date(from.getTime() + days * DAY_MS);
      if (kind === 'activation' && !item.activated_at) update.activated_at = now;
    } else if (kind === 'set_time') {
      update.credit_until = new Date(now.getTime() + days * DAY_MS);
    } else if (kind === 'unlock') {
      update.paid_off_at = now;
      update.credit_until = null;
    }
    await tx.item.update({ where: { organization_id_id: { organization_id: req.orgId, id: item.item_id } }, data: update });
    Object.assign(item, update);

    await this.audit.record(
      {
        organizationId: req.orgId,
        actor: req.actor ?? null,
        action: 'token.generate',
        entityType: 'item',
        entityId: item.item_id,
        description: `${kind} token (count ${generated.count}${days ? `, ${days} days` : ''}) for device ${item.serial_number} by ${req.generatedBy}`,
        metadata: { serial_number: item.serial_number, token_type: kind, token_count: generated.count, days, payment_id: req.paymentId ?? null },
      },
      tx,
    );

    return {
      code_token: generated.token,
      code_type: kind,
      days,
      token_count: generated.count,
      serial_number: item.serial_number,
      token_log_id: log.id,
    };
  }

  generateByDays(orgId: string, user: AuthUser, input: GenerateTokenByDaysInput): Promise<TokenReply> {
    return this.database.db.$transaction(async (tx) => {
      const itemId = await this.resolveItemId(tx, orgId, input.serial_number);
      const t = await this.issue(tx, {
        orgId,
        itemId,
        type: 'add_time',
        days: input.number_of_days,
        activationIfFirst: true,
        generatedBy: user.username,
        actor: user,
        daysField: 'number_of_days',
      });
      return reply(t);
    }, TX_OPTIONS);
  }

  generate(orgId: string, user: AuthUser, input: GenerateTokenInput): Promise<TokenReply> {
    return this.database.db.$transaction(async (tx) => {
      const itemId = await this.resolveItemId(tx, orgId, input.serial_number);
      const t = await this.issue(tx, {
        orgId,
        itemId,
        type: input.type,
        days: input.value ?? 0,
        generatedBy: user.username,
        actor: user,
        daysField: 'value',
      });
      return reply(t);
    }, TX_OPTIONS);
  }

  updateCount(orgId: string, user: AuthUser, input: UpdateTokenCountInput): Promise<UpdateTokenCountReply> {
    return this.database.db.$transaction(async (tx) => {
      const itemId = await this.resolveItemId(tx, orgId, input.serial_number);
      const item = await this.lockItem(tx, orgId, itemId);
      const highest = await tx.tokenLog.aggregate({
        where: { organization_id: orgId, item_id: itemId },
        _max: { token_count: true },
      });
      const issued = highest._max.token_count;
      if (issued !== null && input.new_token_count < issued) {
        throw Errors.conflict(
          `new_token_count: tokens up to count ${issued} were already issued for device ${item.serial_number}; a count can never be issued twice, so it cannot go below ${issued}`,
        );
      }
      await tx.item.update({
        where: { organization_id_id: { organization_id: orgId, id: itemId } },
        data: { token_count: input.new_token_count },
      });
      await this.audit.record(
        {
          organizationId: orgId,
          actor: user,
          action: 'token.count_update',
          entityType: 'item',
          entityId: itemId,
          description: `Token count of device ${item.serial_number} changed from ${item.token_count} to ${input.new_token_count}${input.reason ? `: ${input.reason}` : ''}`,
          metadata: { serial_number: item.serial_number, old_token_count: item.token_count, new_token_count: input.new_token_count, reason: input.reason ?? null },
        },
        tx,
      );
      return {
        message: 'Token count updated successfully',
        serial_number: item.serial_number,
        old_token_count: item.token_count,
        new_token_count: input.new_token_count,
      };
    }, TX_OPTIONS);
  }

  async listLogs(orgId: string, query: TokenLogQuery): Promise<TokenLogList> {
    const db = this.database.read;
    const term = query.search?.trim();
    if (!term) {
      const where = { organization_id: orgId };
      const [rows, total] = await Promise.all([
        db.tokenLog.findMany({ where, orderBy: [{ created_at: 'desc' }, { id: 'desc' }], take: query.limit, skip: query.offset }),
        db.tokenLog.count({ where }),
      ]);
      return { data: { items: rows.map((r) => toTokenLog(r)), total } };
    }
    const pattern = likePattern(term);
    const compact = likePattern(term.replace(/\s+/g, ''));
    const types = TOKEN_KINDS.filter((k) => k.includes(term.toLowerCase().replace(/\s+/g, '_')));
    const typeFilter = types.length
      ? Prisma.sql`OR token_type::text IN (${Prisma.join(types)})`
      : Prisma.empty;
    const filter = Prisma.sql`organization_id = ${orgId}
      AND (serial_number ILIKE ${pattern} OR customer_name ILIKE ${pattern} OR token_value ILIKE ${compact} ${typeFilter})`;
    const [rows, count] = await Promise.all([
      db.$queryRaw<TokenLogRow[]>`
        SELECT token_log_id AS id, token_value, serial_number, customer_name, token_type::text AS token_type,
               days_generated, token_count, status, is_valid, was_assigned, payment_id, created_at, generated_by
        FROM token_logs WHERE ${filter}
        ORDER BY created_at DESC, token_log_id DESC
        LIMIT ${query.limit}::int OFFSET ${query.offset}::int`,
      db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM token_logs WHERE ${filter}`,
    ]);
    return { data: { items: rows.map((r) => toTokenLog(r)), total: count[0]?.n ?? 0 } };
  }
}

const TOKEN_KINDS: TokenKind[] = ['add_time', 'set_time', 'activation', 'unlock', 'counter_sync'];

function reply(t: IssuedToken): TokenReply {
  return {
    code_token: t.code_token,
    code_type: t.code_type,
    days: t.days,
    token_count: t.token_count,
    serial_number: t.serial_number,
    isOrganizationSuspended: false,
  };
}
