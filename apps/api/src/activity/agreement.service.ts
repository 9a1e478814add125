import type { ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';
import { extraTermsOf, type AgreementQuery, type AgreementSettings, type AgreementSettingsInput, type StatementLanguage } from '@kidogo/contracts';
import { FONT, KidogoPdf } from '../common/pdf-document.js';
import { Calendar } from '../common/calendar.js';
import { Errors } from '../common/errors.js';
import { AuditService } from '../audit/audit.service.js';
import type { AuthUser } from '../common/tenancy.js';
import { DatabaseService } from '../database/database.service.js';
import { Prisma } from '../generated/prisma/client.js';
import { payoffSql } from '../customers/balances.js';
import { devicePlanJoin } from '../templates/device-plan.js';
import { isoDayOf } from '../metrics/period.js';
import { sent } from '../reports/report-writers.js';
import { statementLanguage } from './statement.service.js';

/** What an agreement is written from: the device, its holder, its plan and the organization. */
export interface AgreementFacts {
  organization_name: string | null;
  seller_details: string | null;
  paybill: string | null;
  extra_terms: string | null;
  serial_number: string;
  product_name: string;
  manufacturer: string | null;
  model: string | null;
  assigned_at: Date | null;
  customer_id: number;
  customer_name: string;
  id_number: string;
  phone_contact: string;
  village: string | null;
  ward: string | null;
  constituency: string | null;
  county: string | null;
  postal_address: string | null;
  agent_id: string | null;
  preferred_language: string;
  template_name: string;
  deposit_made: Prisma.Decimal;
  activation_price: Prisma.Decimal;
  daily_price: Prisma.Decimal;
  grace_period_days: number;
  currency: string;
  payoff: Prisma.Decimal;
}

/** The plan's terms worked out as the payment rules apply them (README "Payment rules"). */
export interface AgreementTerms {
  currency: string;
  /** What the customer pays in all to own the device. */
  price: number;
  /** Paid before the device first works: the deposit and the activation price together. */
  upfront: number;
  deposit: number;
  activation: number;
  daily: number;
  weekly: number;
  graceDays: number;
  /** About how many days of the daily rate pay off what is left after the upfront payment. */
  days: number;
}

export function agreementTerms(f: Pick<AgreementFacts, 'currency' | 'payoff' | 'deposit_made' | 'activation_price' | 'daily_price' | 'grace_period_days'>): AgreementTerms {
  const price = Number(f.payoff);
  const deposit = Number(f.deposit_made);
  const activation = Number(f.activation_price);
  const daily = Number(f.daily_price);
  const upfront = Math.min(price, deposit + activation);
  return {
    currency: f.currency || 'KES',
    price,
    upfront,
    deposit,
    activation,
    daily,
    weekly: daily * 7,
    graceDays: f.grace_period_days,
    days: daily > 0 ? Math.ceil(Math.max(0, price - upfront) / daily) : 0,
  };
}

const money = (currency: string, n: number) =>
  `${currency} ${n.toLocaleString('en-US', { minimumFractionDigits: n % 1 ? 2 : 0, maximumFractionDigits: 2 })}`;

/** Every word of the agreement, in each language a customer reads it in. */
interface Words {
  title: string;
  reference: (serial: string, date: string) => string;
  seller: string;
  customer: string;
  idNumber: string;
  phone: string;
  address: string;
  agent: string;
  device: string;
  product: string;
  serial: string;
  plan: string;
  terms: string;
  price: string;
  upfront: (t: AgreementTerms) => string;
  daily: (t: AgreementTerms) => string;
  grace: (days: number) => string;
  repay: (days: number) => string;
  clauses: (org: string, t: AgreementTerms, serial: string, paybill: string | null) => string[];
  signatures: string;
  customerSignature: string;
  sellerSignature: string;
  name: string;
  date: string;
  signature: string;
  initials: (serial: string) => string;
  copies: string;
  noAgent: string;
  theSeller: string;
}

const EN: Words = {
  title: 'Pay-As-You-Go Agreement',
  reference: (serial, date) => `Reference ${serial} · dated ${date}`,
  seller: 'Seller',
  customer: 'Customer',
  idNumber: 'ID number',
  phone: 'Phone',
  address: 'Address',
  agent: 'Sales agent',
  device: 'Device',
  product: 'Product',
  serial: 'Serial number',
  plan: 'Payment plan',
  terms: 'What the customer pays',
  price: 'Price to own the device',
  upfront: (t) =>
    t.upfront === 0
      ? 'Nothing before the device first works: the first payment buys days of use'
      : t.deposit > 0 && t.activation > 0
        ? `${money(t.currency, t.upfront)} before the device first works (deposit ${money(t.currency, t.deposit)} and activation ${money(t.currency, t.activation)})`
        : t.deposit > 0
          ? `${money(t.currency, t.upfront)} deposit before the device first works`
          : `${money(t.currency, t.upfront)} to activate the device before it first works`,
  daily: (t) => `${money(t.currency, t.daily)} for each day of use (${money(t.currency, t.weekly)} a week)`,
  grace: (days) => `${days} free ${days === 1 ? 'day' : 'days'} with the first code`,
  repay: (days) => `About ${days.toLocaleString('en-US')} days of payments after the first (${Math.round(days / 30.4)} months), paid at the customer's own pace`,
  clauses: (org, t, serial, paybill) => [
    `Ownership. The device belongs to ${org} until the customer has paid ${money(t.currency, t.price)} in all. Then the device is unlocked for good and belongs to the customer.`,
    `Paying. The customer pays by mobile money${paybill ? ` to paybill ${paybill}` : ''}, giving ${serial} as the account number, or in cash to ${org}'s staff against a receipt. Each payment buys days of use at ${money(t.currency, t.daily)} a day; money short of a whole day is kept towards the next one. There is no interest and no fee for paying late.`,
    `Codes. For each payment the customer receives a code by SMS to the phone number above, and types it into the device. The device works for the days bought and locks itself when they run out, until the next payment. A code works only on this device.`,
    `Care of the device. The customer keeps the device in good condition, does not open, alter, sell, lend or pledge it while it belongs to ${org}, and reports a fault to ${org}, which repairs faults covered by the manufacturer's warranty.`,
    `Taking the device back. If the customer stops paying for a long time, ${org} may take the device back after telling the customer. What was paid until then is the price of the use the customer had, and is not refunded.`,
    `Personal data. ${org} keeps the customer's details, a copy of their ID card and this agreement to run the agreement, as the law allows. The customer may ask for a copy of what is held about them and, once nothing is owed, for it to be erased.`,
    `Changes. The payment plan can be changed only with the agreement of both. The customer may pay off what is left at any time.`,
  ],
  signatures: 'Signed',
  customerSignature: 'The customer',
  sellerSignature: 'For the seller',
  name: 'Name',
  date: 'Date',
  signature: 'Signature',
  initials: (serial) => `Agreement ${serial} · customer's initials: ________`,
  copies: 'Two copies: one for the customer, one for the seller.',
  noAgent: '—',
  theSeller: 'the seller',
};

const SW: Words = {
  title: 'Mkataba wa Lipa Kidogo Kidogo',
  reference: (serial, date) => `Kumbukumbu ${serial} · tarehe ${date}`,
  seller: 'Muuzaji',
  customer: 'Mteja',
  idNumber: 'Namba ya kitambulisho',
  phone: 'Simu',
  address: 'Anwani',
  agent: 'Wakala wa mauzo',
  device: 'Kifaa',
  product: 'Bidhaa',
  serial: 'Namba ya kifaa',
  plan: 'Mpango wa malipo',
  terms: 'Anacholipa mteja',
  price: 'Bei ya kumiliki kifaa',
  upfront: (t) =>
    t.upfront === 0
      ? 'Hakuna malipo kabla kifaa hakijaanza kufanya kazi: malipo ya kwanza yanunua siku za matumizi'
      : t.deposit > 0 && t.activation > 0
        ? `${money(t.currency, t.upfront)} kabla kifaa hakijaanza kufanya kazi (amana ${money(t.currency, t.deposit)} na kuwasha ${money(t.currency, t.activation)})`
        : t.deposit > 0
          ? `Amana ya ${money(t.currency, t.upfront)} kabla kifaa hakijaanza kufanya kazi`
          : `${money(t.currency, t.upfront)} za kuwasha kifaa kabla hakijaanza kufanya kazi`,
  daily: (t) => `${money(t.currency, t.daily)} kwa kila siku ya matumizi (${money(t.currency, t.weekly)} kwa wiki)`,
  grace: (days) => `Siku ${days} za bure pamoja na namba ya kwanza`,
  repay: (days) => `Takriban siku ${days.toLocaleString('en-US')} za malipo baada ya malipo ya kwanza (miezi ${Math.round(days / 30.4)}), kwa kasi ya mteja mwenyewe`,
  clauses: (org, t, serial, paybill) => [
    `Umiliki. Kifaa ni mali ya ${org} hadi mteja atakapolipa jumla ya ${money(t.currency, t.price)}. Hapo kifaa kitafunguliwa kabisa na kuwa mali ya mteja.`,
    `Kulipa. Mteja analipa kwa pesa ya simu${paybill ? ` kwa paybill ${paybill}` : ''}, akitumia ${serial} kama namba ya akaunti, au kwa taslimu kwa wafanyakazi wa ${org} na kupewa risiti. Kila malipo yanunua siku za matumizi kwa ${money(t.currency, t.daily)} kwa siku; pesa isiyotosha siku nzima inawekwa kwa siku inayofuata. Hakuna riba wala ada ya kuchelewa.`,
    `Namba za kufungua. Kwa kila malipo mteja anapokea namba kwa SMS kwenye simu iliyoandikwa hapo juu, na kuiingiza kwenye kifaa. Kifaa kinafanya kazi kwa siku zilizolipiwa na kujifunga zinapoisha, hadi malipo yanayofuata. Namba inafanya kazi kwenye kifaa hiki tu.`,
    `Kutunza kifaa. Mteja atakitunza kifaa vizuri, hatakifungua, kukibadilisha, kukiuza, kukiazima wala kukiweka rehani wakati ni mali ya ${org}, na ataripoti hitilafu kwa ${org}, ambayo itatengeneza hitilafu zilizo chini ya dhamana ya mtengenezaji.`,
    `Kurudisha kifaa. Mteja akiacha kulipa kwa muda mrefu, ${org} inaweza kukichukua kifaa baada ya kumjulisha mteja. Kilicholipwa hadi hapo ni bei ya matumizi aliyopata mteja, na hakirudishwi.`,
    `Taarifa binafsi. ${org} inahifadhi taarifa za mteja, nakala ya kitambulisho chake na mkataba huu ili kutekeleza mkataba, kama sheria inavyoruhusu. Mteja anaweza kuomba nakala ya taarifa zake na, asipodaiwa chochote, zifutwe.`,
    `Mabadiliko. Mpango wa malipo unaweza kubadilishwa tu kwa makubaliano ya wote wawili. Mteja anaweza kulipa kilichobaki wakati wowote.`,
  ],
  signatures: 'Sahihi',
  customerSignature: 'Mteja',
  sellerSignature: 'Kwa niaba ya muuzaji',
  name: 'Jina',
  date: 'Tarehe',
  signature: 'Sahihi',
  initials: (serial) => `Mkataba ${serial} · herufi za kwanza za mteja: ________`,
  copies: 'Nakala mbili: moja ya mteja, moja ya muuzaji.',
  noAgent: '—',
  theSeller: 'muuzaji',
};

const FR: Words = {
  title: 'Contrat de paiement à l\'usage',
  reference: (serial, date) => `Référence ${serial} · du ${date}`,
  seller: 'Vendeur',
  customer: 'Client',
  idNumber: "Numéro de pièce d'identité",
  phone: 'Téléphone',
  address: 'Adresse',
  agent: 'Agent commercial',
  device: 'Appareil',
  product: 'Produit',
  serial: 'Numéro de série',
  plan: 'Plan de paiement',
  terms: 'Ce que paie le client',
  price: "Prix total de l'appareil",
  upfront: (t) =>
    t.upfront === 0
      ? "Rien avant la première mise en marche : le premier paiement achète des jours d'utilisation"
      : t.deposit > 0 && t.activation > 0
        ? `${money(t.currency, t.upfront)} avant la première mise en marche (acompte ${money(t.currency, t.deposit)} et activation ${money(t.currency, t.activation)})`
        : t.deposit > 0
          ? `${money(t.currency, t.upfront)} d'acompte avant la première mise en marche`
          : `${money(t.currency, t.upfront)} pour activer l'appareil avant sa première mise en marche`,
  daily: (t) => `${money(t.currency, t.daily)} par jour d'utilisation (${money(t.currency, t.weekly)} par semaine)`,
  grace: (days) => `${days} ${days === 1 ? 'jour gratuit' : 'jours gratuits'} avec le premier code`,
  repay: (days) => `Environ ${days.toLocaleString('en-US')} jours de paiements après le premier (${Math.round(days / 30.4)} mois), au rythme du client`,
  clauses: (org, t, serial, paybill) => [
    `Propriété. L'appareil appartient à ${org} jusqu'à ce que le client ait payé ${money(t.currency, t.price)} au total. L'appareil est alors débloqué définitivement et appartient au client.`,
    `Paiement. Le client paie par mobile money${paybill ? ` au numéro marchand ${paybill}` : ''}, en indiquant ${serial} comme numéro de compte, ou en espèces au personnel de ${org} contre un reçu. Chaque paiement achète des jours d'utilisation à ${money(t.currency, t.daily)} par jour ; l'argent qui ne fait pas un jour entier est gardé pour le suivant. Il n'y a ni intérêts ni frais de retard.`,
    `Codes. Pour chaque paiement, le client reçoit un code par SMS au numéro de téléphone ci-dessus et le saisit dans l'appareil. L'appareil fonctionne pendant les jours achetés et se verrouille de lui-même quand ils sont épuisés, jusqu'au paiement suivant. Un code ne fonctionne que sur cet appareil.`,
    `Soin de l'appareil. Le client garde l'appareil en bon état, ne l'ouvre pas, ne le modifie pas, ne le vend pas, ne le prête pas et ne le met pas en gage tant qu'il appartient à ${org}, et signale toute panne à ${org}, qui répare les pannes couvertes par la garantie du fabricant.`,
    `Reprise de l'appareil. Si le client cesse de payer pendant longtemps, ${org} peut reprendre l'appareil après en avoir informé le client. Ce qui a été payé jusque-là est le prix de l'usage qu'en a eu le client et n'est pas remboursé.`,
    `Données personnelles. ${org} conserve les informations du client, une copie de sa pièce d'identité et ce contrat pour l'exécution du contrat, dans la mesure permise par la loi. Le client peut demander une copie des informations détenues sur lui et, une fois qu'il ne doit plus rien, leur effacement.`,
    `Modifications. Le plan de paiement ne peut être modifié qu'avec l'accord des deux parties. Le client peut payer le solde restant à tout moment.`,
  ],
  signatures: 'Signatures',
  customerSignature: 'Le client',
  sellerSignature: 'Pour le vendeur',
  name: 'Nom',
  date: 'Date',
  signature: 'Signature',
  initials: (serial) => `Contrat ${serial} · initiales du client : ________`,
  copies: 'Deux exemplaires : un pour le client, un pour le vendeur.',
  noAgent: '—',
  theSeller: 'le vendeur',
};

const WORDS: Record<StatementLanguage, Words> = { en: EN, sw: SW, fr: FR };

/**
 * The agreement a customer signs when they take a device on a plan, as a PDF
 * to print: who, which device, the plan's terms worked out as the payment
 * rules apply them, and the plain-language terms of a PAYG sale. Signed, it
 * is kept with the customer's documents. Everything is read before the first
 * byte is sent, so a refusal is a proper error reply, not a broken file.
 */
@Injectable()
export class AgreementService {
  constructor(
    private readonly database: DatabaseService,
    private readonly calendar: Calendar,
    private readonly audit: AuditService,
  ) {}

  async settings(orgId: string): Promise<AgreementSettings> {
    const org = await this.database.db.organization.findUnique({
      where: { id: orgId },
      select: { agreement_seller_details: true, agreement_paybill: true, agreement_extra_terms: true },
    });
    if (!org) throw Errors.notFound('Organization');
    return { seller_details: org.agreement_seller_details, paybill: org.agreement_paybill, extra_terms: org.agreement_extra_terms };
  }

  async updateSettings(orgId: string, user: AuthUser, input: AgreementSettingsInput): Promise<AgreementSettings> {
    const data = {
      ...(input.seller_details !== undefined ? { agreement_seller_details: input.seller_details } : {}),
      ...(input.paybill !== undefined ? { agreement_paybill: input.paybill } : {}),
      ...(input.extra_terms !== undefined ? { agreement_extra_terms: input.extra_terms } : {}),
    };
    return this.database.db.$transaction(async (tx) => {
      const before = await tx.organization.findUniqueOrThrow({
        where: { id: orgId },
        select: { agreement_seller_details: true, agreement_paybill: true, agreement_extra_terms: true },
      });
      const after = await tx.organization.update({
        where: { id: orgId },
        data,
        select: { agreement_seller_details: true, agreement_paybill: true, agreement_extra_terms: true },
      });
      const changed = (Object.keys(after) as (keyof typeof after)[]).filter((k) => after[k] !== before[k]);
      if (changed.length) {
        await this.audit.record(
          {
            organizationId: orgId,
            actor: user,
            action: 'agreement.settings_updated',
            entityType: 'organization',
            entityId: orgId,
            description: `${user.username} changed the agreement's ${changed.map((k) => k.replace('agreement_', '').replace('_', ' ')).join(', ')}`,
            metadata: { before, after },
          },
          tx as unknown as Prisma.TransactionClient,
        );
      }
      return { seller_details: after.agreement_seller_details, paybill: after.agreement_paybill, extra_terms: after.agreement_extra_terms };
    });
  }

  async read(orgId: string, serial: string, query: AgreementQuery) {
    const [facts] = await this.database.read.$queryRaw<(AgreementFacts & { customer_status: string | null; has_plan: boolean })[]>`
      SELECT o.name AS organization_name, o.agreement_seller_details AS seller_details, o.agreement_paybill AS paybill,
             o.agreement_extra_terms AS extra_terms, i.serial_number, i.product_name, i.manufacturer, i.model, i.assigned_at,
             c.customer_id, c.customer_name, c.id_number, c.phone_contact, c.village, c.ward, c.constituency, c.county,
             c.postal_address, c.agent_id, c.preferred_language, c.status AS customer_status,
             t.template_id IS NOT NULL AS has_plan, t.template_name, t.deposit_made, t.activation_price, t.daily_price,
             t.grace_period_days, t.currency, ${payoffSql('i', 't')} AS payoff
      FROM items i
      JOIN organizations o ON o.organization_id = i.organization_id
      LEFT JOIN customers c ON c.organization_id = i.organization_id AND c.customer_id = i.customer_id
      ${devicePlanJoin()}
      WHERE i.organization_id = ${orgId} AND i.serial_number = ${serial}`;
    if (!facts) throw Errors.notFound('Device');
    if (facts.customer_status === null) throw Errors.conflict(`Device ${serial} is not assigned to a customer: the agreement is for the customer who takes it`);
    if (facts.customer_status === 'erased') throw Errors.conflict(`The personal data of device ${serial}'s customer was erased`);
    if (!facts.has_plan) throw Errors.conflict(`Device ${serial} has no payment plan: put its customer or the device on a plan first`);
    if (facts.payoff === null) throw Errors.conflict(`Device ${serial}'s plan has no price to own it (a free-code price) and the device has no price: set one first`);
    return { facts, language: statementLanguage(query.language, facts.preferred_language) };
  }

  /** Writes the agreement read by `read` as a PDF to `res`. */
  async writePdf(res: ServerResponse, { facts: f, language }: Awaited<ReturnType<AgreementService['read']>>): Promise<void> {
    const w = WORDS[language];
    const t = agreementTerms(f);
    const org = f.organization_name?.trim() || w.theSeller;
    const dated = isoDayOf(this.calendar.dayOf((f.assigned_at ?? new Date()).getTime()));
    const doc = new KidogoPdf({ size: 'A4', margins: { top: 50, bottom: 60, left: 56, right: 56 }, info: { Title: `${w.title}: ${f.serial_number}` } });
    doc.pipe(res);
    const left = doc.page.margins.left;
    const width = doc.page.width - left - doc.page.margins.right;
    const footer = () => {
      const bottom = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      doc.font(FONT.regular).fontSize(8).fillColor('#666666').text(w.initials(f.serial_number), left, doc.page.height - 36, { width, align: 'right', lineBreak: false });
      doc.page.margins.bottom = bottom;
      doc.fillColor('#000000').x = left;
    };
    doc.on('pageAdded', () => {
      const y = doc.page.margins.top;
      footer();
      doc.y = y;
    });
    footer();
    doc.y = doc.page.margins.top;

    doc.font(FONT.bold).fontSize(18).text(w.title, left, doc.y, { width });
    doc.font(FONT.regular).fontSize(10).fillColor('#444444').text(w.reference(f.serial_number, dated), { width });
    doc.fillColor('#000000').moveDown(1);

    const heading = (text: string) => doc.font(FONT.bold).fontSize(12).text(text, left, doc.y, { width }).moveDown(0.3);
    const pairs = (rows: [string, string][]) => {
      for (const [label, value] of rows) {
        const y = doc.y;
        doc.font(FONT.regular).fontSize(10).fillColor('#555555').text(label, left, y, { width: 150 });
        const below = doc.y;
        doc.fillColor('#000000').text(value || '—', left + 160, y, { width: width - 160 });
        doc.y = Math.max(below, doc.y) + 3;
      }
      doc.moveDown(0.6);
    };

    heading(w.seller);
    pairs([[w.name, org], ...(f.seller_details?.trim() ? ([['', f.seller_details.trim()]] as [string, string][]) : [])]);
    heading(w.customer);
    const address = [f.village, f.ward, f.constituency, f.county, f.postal_address].filter((p) => p?.trim()).join(', ');
    pairs([
      [w.name, f.customer_name],
      [w.idNumber, f.id_number],
      [w.phone, f.phone_contact],
      [w.address, address],
      [w.agent, f.agent_id?.trim() || w.noAgent],
    ]);
    heading(w.device);
    pairs([
      [w.product, [f.product_name, [f.manufacturer, f.model].filter(Boolean).join(' ')].filter(Boolean).join(', ')],
      [w.serial, f.serial_number],
      [w.plan, f.template_name],
    ]);
    heading(w.terms);
    pairs([
      [w.price, money(t.currency, t.price)],
      ['', w.upfront(t)],
      ['', w.daily(t)],
      ...(t.graceDays > 0 ? ([['', w.grace(t.graceDays)]] as [string, string][]) : []),
      ...(t.days > 0 ? ([['', w.repay(t.days)]] as [string, string][]) : []),
    ]);

    const clauses = w.clauses(org, t, f.serial_number, f.paybill);
    clauses.forEach((clause, i) => {
      const [head, ...rest] = clause.split('. ');
      doc.font(FONT.bold).fontSize(10).text(`${i + 1}. ${head}. `, left, doc.y, { width, continued: true }).font(FONT.regular).text(rest.join('. '));
      doc.moveDown(0.5);
    });
    // The organization's own terms, numbered after the standard ones, as written.
    extraTermsOf(f.extra_terms).forEach((term, i) => {
      doc.font(FONT.regular).fontSize(10).text(`${clauses.length + i + 1}. ${term}`, left, doc.y, { width });
      doc.moveDown(0.5);
    });

    // The signatures stay together on one page.
    if (doc.y > doc.page.height - doc.page.margins.bottom - 170) doc.addPage();
    doc.moveDown(0.8);
    heading(w.signatures);
    const column = (width - 30) / 2;
    const top = doc.y;
    const block = (x: number, title: string, name: string) => {
      doc.font(FONT.bold).fontSize(10).text(title, x, top, { width: column });
      let y = top + 22;
      for (const [label, value] of [
        [w.name, name],
        [w.signature, ''],
        [w.date, ''],
      ]) {
        doc.font(FONT.regular).fontSize(9).fillColor('#555555').text(label, x, y, { width: column });
        doc.fillColor('#000000').text(value, x + 60, y, { width: column - 60 });
        doc.moveTo(x + 60, y + 13).lineTo(x + column, y + 13).strokeColor('#999999').lineWidth(0.5).stroke();
        y += 30;
      }
      return y;
    };
    const end = Math.max(block(left, w.customerSignature, f.customer_name), block(left + column + 30, w.sellerSignature, ''));
    doc.font(FONT.regular).fontSize(8).fillColor('#666666').text(w.copies, left, end + 6, { width });
    doc.fillColor('#000000');

    const finished = sent(res);
    doc.end();
    await finished;
  }
}
