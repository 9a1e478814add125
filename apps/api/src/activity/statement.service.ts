import type { ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';
import type { StatementLanguage, StatementQuery } from '@kidogo/contracts';
import { FONT, KidogoPdf } from '../common/pdf-document.js';
import { Calendar } from '../common/calendar.js';
import { Errors } from '../common/errors.js';
import { PdfPages } from '../common/pdf-table.js';
import { DatabaseService } from '../database/database.service.js';
import { Prisma } from '../generated/prisma/client.js';
import { broughtOverNow, transferredNow } from '../items/brought-over.js';
import { deviceBalances, toDeviceStatus, type DeviceBalanceRow } from '../customers/balances.js';
import { SUCCESSFUL, periodSql, toPeriod } from '../metrics/period.js';
import { localTime, sent } from '../reports/report-writers.js';

/** More rows than a customer has in years; past it the statement says to narrow the period. */
export const STATEMENT_MAX_ROWS = 5000;

interface StatementCustomer {
  customer_name: string;
  phone_contact: string;
  id_number: string;
  preferred_language: string;
  organization_name: string | null;
}

interface StatementPayment {
  paid_at: Date;
  serial_number: string | null;
  payment_method: string;
  reference: string | null;
  amount: Prisma.Decimal;
  currency: string;
  days_bought: number;
}

interface StatementDiscount {
  given_at: Date;
  serial_number: string;
  reason: string;
  amount: Prisma.Decimal;
  currency: string;
  remaining_after: Prisma.Decimal;
}

interface StatementToken {
  created_at: Date;
  serial_number: string;
  token_type: string;
  days_generated: Prisma.Decimal;
  token_value: string;
}

const amount = (v: { toFixed(n: number): string } | string, currency?: string) => {
  const n = Number(typeof v === 'string' ? v : v.toFixed(2));
  const text = n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return currency ? `${currency} ${text}` : text;
};
/** 123456789 → "123 456 789", as the device's keypad groups it. */
const grouped = (token: string) => token.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
/** Every word of the statement, in each of its languages (the customer reads it, so it is in theirs). */
interface Words {
  title: string;
  id: string;
  allTime: string;
  period(from: string | null, to: string | null): string;
  generated(when: string): string;
  devices: string;
  serial: string;
  product: string;
  plan: string;
  paid: string;
  left: string;
  creditUntil: string;
  none: string;
  perDay: string;
  paidOff: string;
  noDevices: string;
  payments: string;
  date: string;
  device: string;
  method: string;
  reference: string;
  amount: string;
  days: string;
  noPayments: string;
  totalPaid: string;
  paymentCount(n: string, one: boolean): string;
  firstPayments(n: string): string;
  tokens: string;
  type: string;
  token: string;
  noTokens: string;
  firstTokens(n: string): string;
  discounts: string;
  reason: string;
  leftAfter: string;
  asAt: string;
  /** A device whose account was brought over from another system: what was paid before (in Paid), since when. */
  broughtOver: (serial: string, paid: string, since: string) => string;
  transferred: (serial: string, paid: string, since: string, from: string) => string;
  tokenTypes: Record<string, string>;
  methods: Record<string, string>;
}

const WORDS: Record<StatementLanguage, Words> = {
  en: {
    title: 'Statement of account',
    id: 'ID',
    allTime: 'Period: all time',
    period: (from, to) => `Period: ${from ?? 'the beginning'} to ${to ?? 'today'}`,
    generated: (when) => `Generated ${when}`,
    devices: 'Devices',
    serial: 'Serial Number',
    product: 'Product',
    plan: 'Payment Plan',
    paid: 'Paid',
    left: 'Left to Pay',
    creditUntil: 'Credit Until',
    none: 'None',
    perDay: '/day',
    paidOff: 'Paid off',
    noDevices: 'No devices.',
    payments: 'Payments',
    date: 'Date',
    device: 'Device',
    method: 'Method',
    reference: 'Reference',
    amount: 'Amount',
    days: 'Days',
    noPayments: 'No payments in this period.',
    totalPaid: 'Total paid',
    paymentCount: (n, one) => `${n} ${one ? 'payment' : 'payments'}`,
    firstPayments: (n) => `The first ${n} payments of the period; choose a shorter period for the rest.`,
    tokens: 'Tokens',
    type: 'Type',
    token: 'Token',
    noTokens: 'No tokens in this period.',
    firstTokens: (n) => `The first ${n} tokens of the period; choose a shorter period for the rest.`,
    discounts: 'Discounts',
    reason: 'Reason',
    leftAfter: 'Left to Pay After',
    asAt: 'Left to pay and credit are as at the time this statement was generated.',
    broughtOver: (serial, paid, since) =>
      `${serial}: its account was brought over from another system, where it began on ${since}; Paid includes the ${paid} paid there before.`,
    transferred: (serial, paid, since, from) =>
      `${serial}: its account was taken over from ${from} on ${since}; Paid includes the ${paid} paid on it before.`,
    tokenTypes: { add_time: 'Add time', activation: 'Activation', set_time: 'Set time', unlock: 'Unlock', counter_sync: 'Counter sync' },
    methods: { mobile_money: 'Mobile money', cash: 'Cash', bank: 'Bank' },
  },
  sw: {
    title: 'Taarifa ya akaunti',
    id: 'Kitambulisho',
    allTime: 'Kipindi: tangu mwanzo',
    period: (from, to) => `Kipindi: ${from ?? 'mwanzo'} hadi ${to ?? 'leo'}`,
    generated: (when) => `Imetolewa ${when}`,
    devices: 'Vifaa',
    serial: 'Namba ya Kifaa',
    product: 'Bidhaa',
    plan: 'Mpango wa Malipo',
    paid: 'Kilicholipwa',
    left: 'Kilichobaki',
    creditUntil: 'Salio Hadi',
    none: 'Hakuna',
    perDay: '/siku',
    paidOff: 'Kimelipwa',
    noDevices: 'Hakuna vifaa.',
    payments: 'Malipo',
    date: 'Tarehe',
    device: 'Kifaa',
    method: 'Njia',
    reference: 'Kumbukumbu',
    amount: 'Kiasi',
    days: 'Siku',
    noPayments: 'Hakuna malipo katika kipindi hiki.',
    totalPaid: 'Jumla iliyolipwa',
    paymentCount: (n) => `malipo ${n}`,
    firstPayments: (n) => `Malipo ${n} ya kwanza ya kipindi; chagua kipindi kifupi zaidi kuona yaliyobaki.`,
    tokens: 'Tokeni',
    type: 'Aina',
    token: 'Tokeni',
    noTokens: 'Hakuna tokeni katika kipindi hiki.',
    firstTokens: (n) => `Tokeni ${n} za kwanza za kipindi; chagua kipindi kifupi zaidi kuona zilizobaki.`,
    discounts: 'Punguzo',
    reason: 'Sababu',
    leftAfter: 'Kilichobaki Baadaye',
    asAt: 'Kilichobaki na salio ni kama ilivyokuwa taarifa hii ilipotolewa.',
    broughtOver: (serial, paid, since) =>
      `${serial}: akaunti yake ilihamishwa kutoka mfumo mwingine, ilipoanza tarehe ${since}; Kilicholipwa kinajumuisha ${paid} zilizolipwa huko awali.`,
    transferred: (serial, paid, since, from) =>
      `${serial}: akaunti yake ilichukuliwa kutoka kwa ${from} tarehe ${since}; Kilicholipwa kinajumuisha ${paid} zilizolipwa juu yake awali.`,
    tokenTypes: { add_time: 'Kuongeza muda', activation: 'Kuwasha', set_time: 'Kuweka muda', unlock: 'Kufungua kabisa', counter_sync: 'Kusawazisha' },
    methods: { mobile_money: 'Pesa kwa simu', cash: 'Taslimu', bank: 'Benki' },
  },
  fr: {
    title: 'Relevé de compte',
    id: "Pièce d'identité",
    allTime: 'Période : depuis le début',
    period: (from, to) => `Période : du ${from ?? 'début'} au ${to ?? "aujourd'hui"}`,
    generated: (when) => `Établi le ${when}`,
    devices: 'Appareils',
    serial: 'Numéro de série',
    product: 'Produit',
    plan: 'Plan de paiement',
    paid: 'Payé',
    left: 'Reste à payer',
    creditUntil: "Crédit jusqu'au",
    none: 'Aucun',
    perDay: '/jour',
    paidOff: 'Soldé',
    noDevices: 'Aucun appareil.',
    payments: 'Paiements',
    date: 'Date',
    device: 'Appareil',
    method: 'Moyen',
    reference: 'Référence',
    amount: 'Montant',
    days: 'Jours',
    noPayments: 'Aucun paiement sur cette période.',
    totalPaid: 'Total payé',
    paymentCount: (n, one) => `${n} ${one ? 'paiement' : 'paiements'}`,
    firstPayments: (n) => `Les ${n} premiers paiements de la période ; choisissez une période plus courte pour les suivants.`,
    tokens: 'Codes',
    type: 'Type',
    token: 'Code',
    noTokens: 'Aucun code sur cette période.',
    firstTokens: (n) => `Les ${n} premiers codes de la période ; choisissez une période plus courte pour les suivants.`,
    discounts: 'Remises',
    reason: 'Motif',
    leftAfter: 'Reste à payer après',
    asAt: "Le reste à payer et le crédit sont ceux du moment où ce relevé a été établi.",
    broughtOver: (serial, paid, since) =>
      `${serial} : son compte a été repris d'un autre système, où il a commencé le ${since} ; Payé comprend les ${paid} payés là-bas auparavant.`,
    transferred: (serial, paid, since, from) =>
      `${serial} : son compte a été repris de ${from} le ${since} ; Payé comprend les ${paid} payés dessus auparavant.`,
    tokenTypes: { add_time: 'Ajout de temps', activation: 'Activation', set_time: 'Réglage du temps', unlock: 'Déblocage définitif', counter_sync: 'Synchronisation' },
    methods: { mobile_money: 'Mobile money', cash: 'Espèces', bank: 'Banque' },
  },
};

/** The statement's language: the one asked for, else the customer's own (Kiswahili for Swahili, French for French), else English. */
export const statementLanguage = (asked: StatementLanguage | null | undefined, preferred: string): StatementLanguage =>
  asked ?? (preferred === 'Swahili' ? 'sw' : preferred === 'French' ? 'fr' : 'en');

/**
 * A customer's statement of account as a PDF: what a PAYG business hands a
 * customer who asks what they paid, what codes they got and what is left.
 * Everything is read before the first byte is sent, so an unknown customer
 * or a failing query gets a proper error reply, not a broken file.
 */
@Injectable()
export class StatementService {
  constructor(
    private readonly database: DatabaseService,
    private readonly calendar: Calendar,
  ) {}

  async read(orgId: string, customerId: number, query: StatementQuery) {
    const period = toPeriod(query.from, query.to, this.calendar);
    const db = this.database.read;
    const [customer] = await db.$queryRaw<StatementCustomer[]>`
      SELECT c.customer_name, c.phone_contact, c.id_number, c.preferred_language, o.name AS organization_name
      FROM customers c JOIN organizations o ON o.organization_id = c.organization_id
      WHERE c.organization_id = ${orgId} AND c.customer_id = ${customerId}::int`;
    if (!customer) throw Errors.notFound('Customer');
    const paymentsOf = Prisma.sql`
      FROM payments p
      WHERE p.organization_id = ${orgId} AND p.customer_id = ${customerId}::int AND p.status IN ${SUCCESSFUL}
        ${periodSql(Prisma.sql`p.paid_at`, period)}`;
    const [devices, payments, tokens, totals, discounts, broughtOver] = await Promise.all([
      db.$queryRaw<(DeviceBalanceRow & { assigned_at: Date | null; item_id: number })[]>`
        SELECT d.* FROM ${deviceBalances(orgId, Prisma.sql`${customerId}::int`)} d
        ORDER BY d.assigned_at ASC NULLS LAST, d.item_id ASC`,
      db.$queryRaw<StatementPayment[]>`
        SELECT p.paid_at, (SELECT i.serial_number FROM items i WHERE i.organization_id = p.organization_id AND i.item_id = p.item_id) AS serial_number,
               p.payment_method, coalesce(p.transaction_code, p.reference) AS reference, p.amount, p.currency, p.days_bought
        ${paymentsOf}
        ORDER BY p.paid_at, p.payment_id
        LIMIT ${STATEMENT_MAX_ROWS + 1}::int`,
      db.$queryRaw<StatementToken[]>`
        SELECT t.created_at, t.serial_number, t.token_type::text AS token_type, t.days_generated, t.token_value
        FROM token_logs t
        WHERE t.organization_id = ${orgId} AND t.customer_id = ${customerId}::int
          ${periodSql(Prisma.sql`t.created_at`, period)}
        ORDER BY t.created_at, t.token_log_id
        LIMIT ${STATEMENT_MAX_ROWS + 1}::int`,
      // The period's totals, over every payment of it, also past the rows listed.
      db.$queryRaw<{ currency: string; amount: Prisma.Decimal; n: number; days: number }[]>`
        SELECT p.currency, sum(p.amount) AS amount, count(*)::int AS n, sum(p.days_bought)::int AS days
        ${paymentsOf}
        GROUP BY p.currency ORDER BY p.currency`,
      // What was taken off what they had left to pay (README "Discounts"): a balance that fell without a payment, explained.
      db.$queryRaw<StatementDiscount[]>`
        SELECT d.given_at, i.serial_number, d.reason, d.amount, d.currency, d.remaining_after
        FROM device_discounts d JOIN items i ON i.organization_id = d.organization_id AND i.item_id = d.item_id
        WHERE d.organization_id = ${orgId} AND d.customer_id = ${customerId}::int AND d.voided_at IS NULL
          ${periodSql(Prisma.sql`d.given_at`, period)}
        ORDER BY d.given_at, d.discount_id
        LIMIT ${STATEMENT_MAX_ROWS}::int`,
      // The accounts of the customer's devices brought over from another system or taken over from another customer:
      // what was paid before is in Paid.
      db.$queryRaw<{ serial_number: string; paid: Prisma.Decimal; started_at: Date; from_name: string | null }[]>`
        SELECT i.serial_number, coalesce(a.transferred_paid, a.brought_over_paid) AS paid, a.assigned_at AS started_at, f.customer_name AS from_name
        FROM items i JOIN item_assignments a ON a.organization_id = i.organization_id AND a.item_id = i.item_id
        LEFT JOIN customers f ON a.transferred_from_customer_id IS NOT NULL AND f.organization_id = a.organization_id
         AND f.customer_id = a.transferred_from_customer_id
        WHERE i.organization_id = ${orgId} AND i.customer_id = ${customerId}::int
          AND (${broughtOverNow('a', 'i')} OR ${transferredNow('a', 'i')})
        ORDER BY a.assigned_at, i.item_id`,
    ]);
    return { customer, devices, payments, tokens, totals, discounts, broughtOver, query, language: statementLanguage(query.language, customer.preferred_language) };
  }

  /** Writes the statement read by `read` as a PDF to `res`. */
  async writePdf(res: ServerResponse, s: Awaited<ReturnType<StatementService['read']>>): Promise<void> {
    const zone = this.calendar.zone;
    const local = localTime(zone);
    const now = new Date();
    const w = WORDS[s.language];
    const doc = new KidogoPdf({ size: 'A4', layout: 'landscape', margin: 40, bufferPages: false, info: { Title: `${w.title}: ${s.customer.customer_name}` } });
    doc.pipe(res);
    const pages = new PdfPages(doc);

    doc.font(FONT.bold).fontSize(18).text(w.title, pages.left, doc.page.margins.top);
    doc.font(FONT.regular).fontSize(10).fillColor('#444444');
    if (s.customer.organization_name) doc.text(s.customer.organization_name);
    const { from, to } = s.query;
    doc
      .fillColor('#000000')
      .font(FONT.bold)
      .text(s.customer.customer_name, { continued: true })
      .font(FONT.regular)
      .text(` · ${s.customer.phone_contact} · ${w.id} ${s.customer.id_number}`)
      .fillColor('#444444')
      .text(from || to ? w.period(from ?? null, to ?? null) : w.allTime)
      .text(w.generated(`${local(now.toISOString(), 16)} (${zone})`));
    doc.fillColor('#000000');
    pages.y = doc.y + 14;

    const deviceRows = s.devices.map((row) => {
      const d = toDeviceStatus(row, now.getTime());
      const plan = d.payment_plan ? `${d.payment_plan.template_name} (${amount(d.payment_plan.daily_price)}${w.perDay})` : w.none;
      return [
        d.serial_number,
        d.product_name,
        plan,
        amount(d.total_paid),
        d.paid_off ? w.paidOff : d.remaining === null ? '' : amount(d.remaining),
        d.credit_until ? local(d.credit_until, 10) : '',
      ];
    });
    pages.section(
      w.devices,
      [
        { label: w.serial, weight: 1.6 },
        { label: w.product, weight: 1.6 },
        { label: w.plan, weight: 2 },
        { label: w.paid, align: 'right', weight: 1.2 },
        { label: w.left, align: 'right', weight: 1.2 },
        { label: w.creditUntil, weight: 1 },
      ],
      deviceRows,
      w.noDevices,
    );
    for (const b of s.broughtOver) {
      const since = local(b.started_at.toISOString(), 10);
      pages.note(b.from_name === null ? w.broughtOver(b.serial_number, amount(b.paid), since) : w.transferred(b.serial_number, amount(b.paid), since, b.from_name));
    }
    pages.y += 12;

    const shownPayments = s.payments.slice(0, STATEMENT_MAX_ROWS);
    const payments = pages.section(
      w.payments,
      [
        { label: w.date, weight: 1.4 },
        { label: w.device, weight: 1.6 },
        { label: w.method, weight: 1.1 },
        { label: w.reference, weight: 1.6 },
        { label: w.amount, align: 'right', weight: 1.3 },
        { label: w.days, align: 'right', weight: 0.7 },
      ],
      shownPayments.map((p) => [
        local(p.paid_at.toISOString(), 16),
        p.serial_number ?? '',
        w.methods[p.payment_method] ?? p.payment_method,
        p.reference ?? '',
        amount(p.amount, p.currency),
        String(p.days_bought),
      ]),
      w.noPayments,
    );
    const count = s.totals.reduce((n, c) => n + c.n, 0);
    payments.total([
      w.totalPaid,
      '',
      '',
      w.paymentCount(count.toLocaleString('en-US'), count === 1),
      s.totals.map((c) => amount(c.amount, c.currency)).join(' + ') || '0.00',
      String(s.totals.reduce((n, c) => n + c.days, 0)),
    ]);
    if (s.payments.length > STATEMENT_MAX_ROWS) pages.note(w.firstPayments(STATEMENT_MAX_ROWS.toLocaleString('en-US')));
    pages.y += 12;

    if (s.discounts.length) {
      pages.section(
        w.discounts,
        [
          { label: w.date, weight: 1.4 },
          { label: w.device, weight: 1.6 },
          { label: w.reason, weight: 2.6 },
          { label: w.amount, align: 'right', weight: 1.3 },
          { label: w.leftAfter, align: 'right', weight: 1.3 },
        ],
        s.discounts.map((d) => [
          local(d.given_at.toISOString(), 16),
          d.serial_number,
          d.reason,
          amount(d.amount, d.currency),
          amount(d.remaining_after, d.currency),
        ]),
        '',
      );
      pages.y += 12;
    }

    pages.section(
      w.tokens,
      [
        { label: w.date, weight: 1.4 },
        { label: w.device, weight: 1.6 },
        { label: w.type, weight: 1.2 },
        { label: w.days, align: 'right', weight: 0.8 },
        { label: w.token, weight: 1.8 },
      ],
      s.tokens.slice(0, STATEMENT_MAX_ROWS).map((t) => [
        local(t.created_at.toISOString(), 16),
        t.serial_number,
        w.tokenTypes[t.token_type] ?? t.token_type,
        t.token_type === 'unlock' ? '' : String(Number(t.days_generated)),
        grouped(t.token_value),
      ]),
      w.noTokens,
    );
    if (s.tokens.length > STATEMENT_MAX_ROWS) pages.note(w.firstTokens(STATEMENT_MAX_ROWS.toLocaleString('en-US')));
    pages.y += 8;
    pages.note(w.asAt);

    pages.finish();
    const finished = sent(res);
    doc.end();
    await finished;
  }
}
