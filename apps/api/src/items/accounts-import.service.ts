import { Injectable } from '@nestjs/common';
import {
  ACCOUNT_EXPORT_COLUMNS,
  ACCOUNT_EXPORT_FILE_NAME,
  ACCOUNT_IMPORT_COLUMNS,
  ACCOUNT_IMPORT_FIELD,
  ACCOUNT_IMPORT_REQUIRED,
  normalizeSerial,
  ZAccountImportRowSchema,
  type AccountImportRow,
  type AccountsImportReport,
  type CsvRowError,
} from '@kidogo/contracts';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { Calendar, dayNumber } from '../common/calendar.js';
import type { AuthUser } from '../common/tenancy.js';
import { Prisma } from '../generated/prisma/client.js';
import { importCsv, type CsvImportOutcome } from '../catalog/csv-import.js';
import { ImportJobs } from '../catalog/import-jobs.js';
import type { UploadedCsv } from '../catalog/csv-upload.js';
import { streamCsv } from '../catalog/csv-write.js';
import { streamReply, type HttpReply } from '../common/http.js';
import { devicePlanJoin } from '../templates/device-plan.js';
import { TemplatesService } from '../templates/templates.service.js';
import { webhookEventSql } from '../webhooks/webhook-events.js';
import type { Tx } from './items.service.js';

const DAY_MS = 86_400_000;
const EXPORT_BATCH = 1000;
/** Rows per batch: each row is its own transaction, so a batch only paces the parser. */
const BATCH = 200;
/** Rows brought over at once, each on its own connection: the statements of one row wait on the database in turn. */
const LANES = 4;
/** The lane of a customer (by ID number): a customer's rows run one after the other, in the file's order. */
function laneOf(idNumber: string): number {
  let h = 0;
  for (let i = 0; i < idNumber.length; i++) h = (h * 31 + idNumber.charCodeAt(i)) >>> 0;
  return h % LANES;
}

/** A row the database refuses: reported with its column, and nothing of it kept. */
class RowRefused extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}
/** Thrown at the end of a dry run's row, to roll back what it wrote. */
class DryRun extends Error {}

interface Plan {
  id: number;
  template_name: string;
  currency: string;
  deposit_made: Prisma.Decimal;
  activation_price: Prisma.Decimal;
  daily_price: Prisma.Decimal;
  grace_period_days: number;
  free_code_price: Prisma.Decimal | null;
}

interface Tally {
  paidOff: number;
  inCredit: number;
  paidBefore: Map<string, Prisma.Decimal>;
}

type Outcome = { imported: true; paidOff: boolean; inCredit: boolean; currency: string; paid: Prisma.Decimal } | { imported: false };

const asAuditTx = (tx: Tx) => tx as unknown as Prisma.TransactionClient;

/**
 * Accounts brought over from another system (README "Bringing accounts
 * over"): each row gives a device to its customer as of the day its account
 * began there, with what was paid on it and until when its credit runs, and
 * puts it on its plan, as if it had been sold in Kidogo. Nothing is issued or
 * sent: the device took its codes from the other system, and the next code
 * Kidogo makes continues from the count imported with the device.
 *
 * Each row is its own transaction (a refused row keeps nothing), run with the
 * same code in a dry run, which rolls each one back: the check says what the
 * import will do. A device brought over to the same customer already is
 * skipped, so uploading the file again imports nothing.
 */
@Injectable()
export class AccountsImportService {
  constructor(
    private readonly database: DatabaseService,
    private readonly jobs: ImportJobs,
    private readonly templates: TemplatesService,
    private readonly audit: AuditService,
    private readonly calendar: Calendar,
  ) {}

  async import(orgId: string, file: UploadedCsv, actor: AuthUser, dryRun: boolean): Promise<AccountsImportReport> {
    const tally: Tally = { paidOff: 0, inCredit: 0, paidBefore: new Map() };
    const work = () => this.run(orgId, file, actor, dryRun, tally);
    const report = dryRun
      ? { job_id: null, ...(await work()) }
      : await this.jobs.run({ orgId, kind: 'accounts', filename: file.originalname, actor }, work);
    return {
      ...report,
      dry_run: dryRun,
      paid_off: tally.paidOff,
      in_credit: tally.inCredit,
      paid_before: [...tally.paidBefore].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount]) => ({ currency, amount: amount.toFixed(2) })),
    };
  }

  private async run(orgId: string, file: UploadedCsv, actor: AuthUser, dryRun: boolean, tally: Tally): Promise<CsvImportOutcome> {
    const plans = await this.database.db.paymentTemplate.findMany({
      where: { organization_id: orgId },
      orderBy: { id: 'asc' },
      select: {
        id: true,
        template_name: true,
        currency: true,
        deposit_made: true,
        activation_price: true,
        daily_price: true,
        grace_period_days: true,
        free_code_price: true,
      },
    });
    // The row each device was brought over on (or found brought over already): named again, it is that row's error,
    // which names the first by its line in the spreadsheet (the header is line 1), as the import's page shows rows.
    const seen = new Map<string, number>();
    return importCsv(file.path, {
      field: ACCOUNT_IMPORT_FIELD,
      required: ACCOUNT_IMPORT_REQUIRED,
      columns: ACCOUNT_IMPORT_COLUMNS,
      schema: ZAccountImportRowSchema,
      batchSize: BATCH,
      insertBatch: async (rows, numbers) => {
        let inserted = 0;
        const errors: CsvRowError[] = [];
        // The first row of the batch naming each device: a later one waits for it, and is refused if it went through.
        const firsts = new Map<string, { row: number; through: Promise<boolean>; settle: (through: boolean) => void }>();
        const one = async (row: AccountImportRow, at: number) => {
          const key = normalizeSerial(row.serial_number);
          const claim = firsts.get(key)!;
          const earlier = seen.get(key) ?? (claim.row !== at && (await claim.through) ? claim.row : undefined);
          if (earlier !== undefined) {
            errors.push({ row: at, field: 'serial_number', message: `device ${row.serial_number} is on line ${earlier + 1} already` });
            return;
          }
          let through = false;
          try {
            const outcome = await this.importRow(orgId, row, plans, actor, dryRun);
            through = true;
            if (!outcome.imported) return;
            inserted++;
            if (outcome.paidOff) tally.paidOff++;
            if (outcome.inCredit) tally.inCredit++;
            tally.paidBefore.set(outcome.currency, (tally.paidBefore.get(outcome.currency) ?? new Prisma.Decimal(0)).plus(outcome.paid));
          } catch (e) {
            if (!(e instanceof RowRefused)) throw e;
            errors.push({ row: at, field: e.field, message: e.message });
          } finally {
            if (claim.row === at) claim.settle(through);
          }
        };
        // Lanes by customer, each in the file's order: one customer's rows one after the other (which plan becomes
        // theirs, and which a device's own, is the file's order), LANES customers at once.
        const lanes: [AccountImportRow, number][][] = Array.from({ length: LANES }, () => []);
        for (const [i, row] of rows.entries()) {
          const key = normalizeSerial(row.serial_number);
          if (!firsts.has(key)) {
            let settle!: (through: boolean) => void;
            const through = new Promise<boolean>((r) => (settle = r));
            firsts.set(key, { row: numbers[i]!, through, settle });
          }
          lanes[laneOf(row.id_number)]!.push([row, numbers[i]!]);
        }
        try {
          await Promise.all(lanes.map(async (lane) => {
            for (const [row, at] of lane) await one(row, at);
          }));
        } finally {
          for (const claim of firsts.values()) claim.settle(false);
        }
        for (const [i, row] of rows.entries()) {
          const key = normalizeSerial(row.serial_number);
          if (!seen.has(key) && !errors.some((e) => e.row === numbers[i])) seen.set(key, numbers[i]!);
        }
        errors.sort((a, b) => a.row - b.row);
        return { inserted, errors };
      },
    });
  }

  private async importRow(orgId: string, row: AccountImportRow, plans: Plan[], actor: AuthUser, dryRun: boolean): Promise<Outcome> {
    let outcome: Outcome = { imported: false };
    try {
      await this.database.db.$transaction(async (tx) => {
        outcome = await this.bringOver(tx, orgId, row, plans, actor);
        if (dryRun && outcome.imported) throw new DryRun();
      });
    } catch (e) {
      if (!(e instanceof DryRun)) throw e;
    }
    return outcome;
  }

  private async bringOver(tx: Tx, orgId: string, row: AccountImportRow, plans: Plan[], actor: AuthUser): Promise<Outcome> {
    const [customer] = await tx.$queryRaw<{ id: number; customer_name: string; status: string }[]>`
      SELECT customer_id AS id, customer_name, status FROM customers
      WHERE organization_id = ${orgId} AND id_number = ${row.id_number} FOR NO KEY UPDATE`;
    if (!customer) throw new RowRefused('id_number', `no customer with ID number ${row.id_number} (import the customers first)`);
    if (customer.status === 'erased') throw new RowRefused('id_number', `the customer with ID number ${row.id_number} was erased`);

    const [item] = await tx.$queryRaw<
      { id: number; serial_number: string; status: string; is_assigned: boolean; customer_id: number | null; price: Prisma.Decimal }[]
    >`
      SELECT item_id AS id, serial_number, status::text AS status, is_assigned, customer_id, price FROM items
      WHERE organization_id = ${orgId} AND (serial_number = ${row.serial_number} OR serial_normalized = ${normalizeSerial(row.serial_number)})
      ORDER BY (serial_number = ${row.serial_number}) DESC LIMIT 1
      FOR UPDATE`;
    if (!item) throw new RowRefused('serial_number', `no device ${row.serial_number} (import the devices first)`);
    const serial = item.serial_number;
    const history = await tx.itemAssignment.findMany({
      where: { organization_id: orgId, item_id: item.id },
      select: { customer_id: true, brought_over_at: true },
      take: 2,
    });
    if (item.is_assigned && item.customer_id === customer.id && history.some((h) => h.brought_over_at !== null)) {
      return { imported: false };
    }
    if (item.is_assigned) throw new RowRefused('serial_number', `device ${serial} is assigned to a customer in Kidogo already`);
    if (history.length) {
      throw new RowRefused('serial_number', `device ${serial} has had an account in Kidogo already: give it with Assign Product`);
    }
    if (item.status === 'retired') throw new RowRefused('serial_number', `device ${serial} is retired`);
    if (item.status === 'maintenance') throw new RowRefused('serial_number', `device ${serial} is under maintenance: make it available first`);

    const named = row.template ? this.planNamed(plans, row.template) : null;
    const [customerPlan] = await tx.$queryRaw<{ template_id: number }[]>`
      SELECT template_id FROM template_assignments
      WHERE organization_id = ${orgId} AND customer_id = ${customer.id} AND item_id IS NULL AND is_active LIMIT 1`;
    const plan = named ?? plans.find((p) => p.id === customerPlan?.template_id) ?? null;

    const now = new Date();
    const start = this.calendar.startOf(dayNumber(row.start_date));
    if (start > now) throw new RowRefused('start_date', 'is in the future');
    const paid = new Prisma.Decimal(row.paid);
    const payoff = plan?.free_code_price ?? (item.price.gt(0) ? item.price : null);
    const paidOff = payoff !== null && paid.gte(payoff);
    const upfront = plan ? plan.deposit_made.plus(plan.activation_price) : null;
    const activated = paidOff || row.credit_until !== undefined || (upfront !== null && paid.gte(upfront));
    let creditUntil: Date | null = null;
    if (!paidOff && row.credit_until !== undefined) {
      creditUntil = row.credit_until.includes('T')
        ? this.calendar.instantAt(row.credit_until)
        : this.calendar.startOf(dayNumber(row.credit_until) + 1);
      if (!creditUntil || creditUntil < start) throw new RowRefused('credit_until', 'is before start_date');
    } else if (!paidOff && plan && activated && plan.daily_price.gt(0)) {
      // As the payment pipeline would have: whole days at the daily price after the upfront amount, and the grace days.
      const days = paid.minus(upfront!).div(plan.daily_price).floor().toNumber() + plan.grace_period_days;
      creditUntil = new Date(start.getTime() + days * DAY_MS);
    }
    // Before activation (and without a plan) every shilling paid is held as credit (README "Payment rules", 2 and 4).
    const credit = activated ? new Prisma.Decimal(0) : paid;

    await tx.$executeRaw`
      UPDATE items SET is_assigned = true, status = 'assigned', customer_id = ${customer.id}, assigned_at = ${start},
             total_paid = ${paid.toFixed(2)}::numeric, credit = ${credit.toFixed(2)}::numeric,
             activated_at = ${activated ? start : null}::timestamptz, paid_off_at = ${paidOff ? now : null}::timestamptz,
             credit_until = ${creditUntil}::timestamptz, free_days = 0, discount = 0, updated_at = now()
      WHERE organization_id = ${orgId} AND item_id = ${item.id}`;
    await tx.itemAssignment.create({
      data: {
        organization_id: orgId,
        item_id: item.id,
        customer_id: customer.id,
        assigned_by: actor.username,
        assigned_at: start,
        brought_over_paid: paid.toFixed(2),
        brought_over_at: now,
      },
    });
    if (named) {
      // Onboarding's rule: the customer's plan, unless they are on another one already; then the device's own.
      const own = customerPlan !== undefined && customerPlan.template_id !== named.id;
      await this.templates.assignInTx(
        tx,
        orgId,
        { customer_id: customer.id, template_id: named.id, serial_number: own ? serial : undefined, start_date: row.start_date },
        actor,
      );
    }
    const figures = {
      customer_id: customer.id,
      paid: paid.toFixed(2),
      started_at: start.toISOString(),
      credit_until: creditUntil?.toISOString() ?? null,
      paid_off: paidOff,
      template_id: plan?.id ?? null,
    };
    await this.audit.record(
      {
        organizationId: orgId,
        actor,
        action: 'item.account_brought_over',
        entityType: 'item',
        entityId: serial,
        description: `Brought over the account of device ${serial} for ${customer.customer_name} from another system: ${paid.toFixed(2)} paid since ${row.start_date}${paidOff ? ', paid off' : ''}`,
        metadata: figures,
      },
      asAuditTx(tx),
    );
    await tx.$executeRaw(
      webhookEventSql(orgId, 'device.assigned', {
        serial_number: serial,
        item_id: item.id,
        customer_id: customer.id,
        customer_name: customer.customer_name,
        new_account: true,
        assigned_at: start.toISOString(),
        assigned_by: actor.username,
        override_reason: null,
        brought_over: { paid: figures.paid, credit_until: figures.credit_until, paid_off: paidOff },
      }),
    );
    return {
      imported: true,
      paidOff,
      inCredit: creditUntil !== null && creditUntil > now,
      currency: plan?.currency ?? '',
      paid,
    };
  }

  /**
   * Every device given to a customer now, as the import reads it (ACCOUNT_EXPORT_COLUMNS), by device, in keyset
   * batches written as they come: the day its account began and its credit date in the installation's time zone, what
   * was paid on it, its plan by name. Imported into another organization, it gives the same devices to the same
   * customers on the same terms (discounts and free days are not in it). Audited as accounts.exported.
   */
  async export(orgId: string, reply: HttpReply, actor: AuthUser): Promise<void> {
    const zone = this.calendar.zone;
    const res = streamReply(reply, 'text/csv; charset=utf-8', ACCOUNT_EXPORT_FILE_NAME);
    const { count, complete } = await streamCsv<unknown[]>(
      res,
      ACCOUNT_EXPORT_COLUMNS,
      EXPORT_BATCH,
      (after) =>
        this.database.readArrays(Prisma.sql`
          SELECT i.serial_number, c.id_number, t.template_name, to_char(i.assigned_at AT TIME ZONE ${zone}, 'YYYY-MM-DD'),
                 i.total_paid::text, to_char(i.credit_until AT TIME ZONE ${zone}, 'YYYY-MM-DD HH24:MI:SS'), c.customer_name, c.phone_contact,
                 i.item_id
          FROM items i
          JOIN customers c ON c.organization_id = i.organization_id AND c.customer_id = i.customer_id
          ${devicePlanJoin('i', 't')}
          WHERE i.organization_id = ${orgId} AND i.is_assigned AND i.item_id > ${after ? (after[ACCOUNT_EXPORT_COLUMNS.length] as number) : 0}::int
          ORDER BY i.item_id
          LIMIT ${EXPORT_BATCH}::int`),
      (row) => row.slice(0, ACCOUNT_EXPORT_COLUMNS.length),
    );
    this.audit.recordQuietly({
      organizationId: orgId,
      actor,
      action: 'accounts.exported',
      entityType: 'item',
      description: `Exported ${count} accounts to CSV`,
      metadata: { count, complete },
    });
  }

  /** The template a row names: by number, else by name (any case); refused when none or several have it. */
  private planNamed(plans: Plan[], name: string): Plan {
    const byId = /^\d+$/.test(name) ? plans.find((p) => p.id === Number(name)) : undefined;
    if (byId) return byId;
    const matches = plans.filter((p) => p.template_name.trim().toLowerCase() === name.toLowerCase());
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) {
      throw new RowRefused('template', `${matches.length} payment templates are named ${name}: give its number (${matches.map((p) => p.id).join(' or ')})`);
    }
    throw new RowRefused('template', `no payment template named ${name}`);
  }
}
