import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import type { ItemRepossessReply, ZItemRepossessSchema } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { TokensService } from '../tokens/tokens.service.js';
import { lockedPayoff, tokenColumnsSql, tokenInsertsSql } from '../tokens/token-device.js';
import { tokenIssuedData } from '../tokens/tokens.service.js';
import { webhookEventSql } from '../webhooks/webhook-events.js';
import { returnMoveSql, returnPlace } from './return-place.js';

type RepossessInput = z.output<typeof ZItemRepossessSchema>;

/**
 * Repossession: a device taken back from a customer who stopped paying, in
 * one transaction on the locked device:
 * - the set_time 0 token that locks it (OpenPAYGO: it also closes every older
 *   code, so no code already sent can unlock it again), unless the device is
 *   already off;
 * - the device leaves the customer (its assignment and its own plan end) for
 *   maintenance or the available stock, at the stock location it was given
 *   from or the one location_id names (a move, with its movement row);
 * - what was left to pay on it is written off: a row of repossessions (the
 *   Repossession report) and the audit entry with the reason
 *   (item.repossessed), which the Activity Log shows.
 * The account stays on the device, as with any unassignment: given back to
 * the same customer (arrears paid), it carries on where it was; to anyone
 * else, it starts afresh.
 */
@Injectable()
export class RepossessionService {
  constructor(
    private readonly database: DatabaseService,
    private readonly tokens: TokensService,
  ) {}

  repossess(orgId: string, user: AuthUser, input: RepossessInput): Promise<ItemRepossessReply> {
    return this.database.transaction(async (run) => {
      const item = await this.tokens.lockBySerial(run, orgId, input.item_serial_number);
      const serial = item.serial_number;
      if (item.customer_id === null) throw Errors.conflict(`Device ${serial} is not assigned to a customer: there is nothing to repossess`);
      if (item.paid_off_at) throw Errors.conflict(`Device ${serial} is paid off: it is ${item.customer_name ?? 'its customer'}'s`);
      // Where it was given from, and where it goes: there again unless location_id says otherwise.
      // Not recovered (retired): it is at no place any more.
      const lost = input.status === 'retired';
      const place = await returnPlace(run, orgId, item.item_id, lost ? null : input.location_id);
      const to = place.to;
      const customerId = item.customer_id;
      const customerName = item.customer_name ?? `customer ${customerId}`;
      const payoff = lockedPayoff(item);
      const writtenOff = payoff === null ? null : Prisma.Decimal.max(payoff.minus(item.total_paid), 0).toFixed(2);
      const [lock] = input.lock ? this.tokens.plan(item, [{ type: 'set_time', days: 0 }]) : [];
      const writes = lock ? tokenInsertsSql({ orgId, item, generatedBy: user.username, actor: user, paymentId: null }, [lock], null) : null;
      const description =
        `Device ${serial} ${lost ? 'written off as not recovered' : 'repossessed'} from ${customerName} by ${user.username}` +
        `${writtenOff !== null ? `, ${writtenOff} written off` : ''}${lock ? `, locked with token count ${lock.count}` : ''}: ${input.reason}`;
      const metadata = {
        reason: input.reason,
        customer_id: customerId,
        customer_name: customerName,
        total_paid: item.total_paid.toFixed(2),
        written_off: writtenOff,
        lock_token_count: lock?.count ?? null,
        status: input.status,
        location: to.name,
      };
      const repossessed = webhookEventSql(orgId, 'device.repossessed', {
        serial_number: serial,
        item_id: item.item_id,
        ...metadata,
        currency: item.tpl_currency ?? 'KES',
        lock_token: lock ? { token: lock.token, token_count: lock.count } : null,
        repossessed_by: user.username,
      });
      const issued = lock ? webhookEventSql(orgId, 'token.issued', tokenIssuedData(item, lock, user.username)) : null;
      const note = `${lost ? 'Not recovered' : 'Repossessed'}: ${input.reason}`.slice(0, 300);
      await run(Prisma.sql`
        WITH ${writes ? Prisma.sql`tl AS (${writes.logs} RETURNING 1), al AS (${writes.audits} RETURNING 1), ex AS (${writes.expire} RETURNING 1),` : Prisma.empty}
        ${issued ? Prisma.sql`wt AS (${issued} RETURNING 1),` : Prisma.empty}
        wr AS (${repossessed} RETURNING 1),
        ${returnMoveSql(orgId, item, place, user, note)}
        d AS (
          UPDATE items SET ${tokenColumnsSql(item)}, is_assigned = false, customer_id = NULL, assigned_at = NULL,
                           status = ${input.status}::"ItemStatus", location_id = ${to.location_id}::int, updated_at = now()
          WHERE organization_id = ${orgId} AND item_id = ${item.item_id}::int RETURNING 1
        ), ia AS (
          UPDATE item_assignments SET unassigned_at = now()
          WHERE organization_id = ${orgId} AND item_id = ${item.item_id}::int AND unassigned_at IS NULL RETURNING 1
        ), r AS (
          INSERT INTO repossessions (organization_id, item_id, customer_id, repossessed_by, reason, total_paid, written_off, currency,
                                     lock_token_count, status)
          VALUES (${orgId}, ${item.item_id}::int, ${customerId}::int, ${user.username}, ${input.reason}, ${item.total_paid.toFixed(2)}::numeric,
                  ${writtenOff}::numeric, ${item.tpl_currency ?? 'KES'}, ${lock?.count ?? null}::int, ${input.status}::"ItemStatus")
          RETURNING 1
        ), ta AS (
          -- A plan of the device's own was part of the customer's account.
          UPDATE template_assignments SET is_active = false, ended_at = now()
          WHERE organization_id = ${orgId} AND item_id = ${item.item_id}::int AND is_active RETURNING 1
        )
        INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
        VALUES (${orgId}, ${user.user_id}::int, ${user.username}, 'item.repossessed', 'item', ${serial}, ${description.slice(0, 1000)},
                ${JSON.stringify(metadata)}::jsonb)`);
      return {
        message: lost ? `Device ${serial} written off as not recovered from ${customerName}` : `Device ${serial} repossessed from ${customerName}`,
        serial_number: serial,
        customer_id: customerId,
        customer_name: customerName,
        lock_token: lock ? { token: lock.token, token_count: lock.count } : null,
        total_paid: item.total_paid.toFixed(2),
        written_off: writtenOff,
        status: input.status,
        location_id: to.location_id,
        location_name: to.name,
      };
    });
  }
}
