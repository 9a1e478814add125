import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomer, seedItem, seedTemplate, seedTenant, seedUser, type SeededUser } from './support/factories.js';
import { README_PLAN, SECOND_PLAN } from './support/plans.js';
import { binaryParser, bodyBytes, pdfText } from './support/pdf.js';
import { agreementTerms } from '../src/activity/agreement.service.js';
import { Prisma } from '../src/generated/prisma/client.js';

// The PAYG agreement of a device and its customer (GET /devices/{serial}/agreement):
// a PDF to print for the customer to sign at the sale.

describe('the PAYG agreement of a device', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const agreement = (user: SeededUser, serial: string, query: Record<string, string> = {}) =>
    t.http.get(`/payg/devices/${encodeURIComponent(serial)}/agreement`).query(query).set(user.auth).buffer(true).parse(binaryParser);
  /** A refusal's message (the reply was read as bytes, as a PDF would be). */
  const messageOf = (res: Parameters<typeof bodyBytes>[0]) => JSON.parse(bodyBytes(res).toString()).message as string;
  /** The PDF's text with its lines run together, as the terms wrap where the page ends. */
  const flat = (text: string) => text.replace(/\s+/g, ' ');

  /** Chebet, of Soy in Uasin Gishu, signed up by agent AGT-7, takes a solar home system on the README's plan. */
  async function sale() {
    const { user, org } = await seedTenant(t);
    await t.db.platform.organization.update({ where: { id: org.id }, data: { name: 'Jua Power Ltd' } });
    const customer = await seedCustomer(t, org.id, { customer_name: 'Chebet Kiprop', id_number: '27551093', phone_contact: '0733345603' });
    await t.db.db.customer.update({
      where: { organization_id_id: { organization_id: org.id, id: customer.id } },
      data: { village: 'Kipsangui', constituency: 'Soy', county: 'Uasin Gishu', agent_id: 'AGT-7' },
    });
    const plan = await seedTemplate(t, org.id, { ...README_PLAN, template_name: 'Solar Home 50W - Daily' });
    const item = await seedItem(t, org.id, { serial_number: 'SHS-2041', product_name: 'Solar Home System 50W' });
    await t.http.post('/payg/onboarding').set(user.auth).send({ customer_id: customer.id, item_serial_number: item.serial_number, template_id: plan.id }).expect(200);
    return { user, org, customer, plan, item };
  }

  it("writes the seller, the customer, the device and the plan's terms as the payment rules apply them, with places to sign", async () => {
    const { user, item } = await sale();
    const res = await agreement(user, item.serial_number).expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="agreement-SHS-2041.pdf"');
    expect(res.headers['cache-control']).toBe('no-store');
    const pdf = bodyBytes(res);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const raw = pdfText(pdf);
    if (raw === null) return;
    const text = flat(raw);
    expect(text).toContain('Pay-As-You-Go Agreement');
    expect(text).toMatch(/Reference SHS-2041 · dated \d{4}-\d{2}-\d{2}/);
    expect(text).toContain('Seller Name Jua Power Ltd');
    expect(text).toContain('Customer Name Chebet Kiprop');
    expect(text).toContain('ID number 27551093');
    expect(text).toContain('Phone 0733345603');
    expect(text).toContain('Address Kipsangui, Soy, Uasin Gishu');
    expect(text).toContain('Sales agent AGT-7');
    expect(text).toContain('Device Product Solar Home System 50W, SunCo');
    expect(text).toContain('Serial number SHS-2041');
    expect(text).toContain('Payment plan Solar Home 50W - Daily');
    // 1,500 before it works; 18,500 left at 50 a day is 370 days; 3 grace days with the activation code.
    expect(text).toContain('Price to own the device KES 20,000');
    expect(text).toContain('KES 1,500 before the device first works (deposit KES 1,000 and activation KES 500)');
    expect(text).toContain('KES 50 for each day of use (KES 350 a week)');
    expect(text).toContain('3 free days with the first code');
    expect(text).toContain('About 370 days of payments after the first (12 months)');
    expect(text).toContain('1. Ownership. The device belongs to Jua Power Ltd until the customer has paid KES 20,000 in all.');
    expect(text).toContain('giving SHS-2041 as the account number');
    expect(text).toContain('7. Changes.');
    expect(text).toMatch(/The customer\s+For the seller/);
    expect(text).toContain('Name Chebet Kiprop');
    expect(text).toContain("Agreement SHS-2041 · customer's initials: ________");
  });

  it("is in the customer's language unless one is asked for, and the device's own plan wins over the customer's", async () => {
    const { user, org, customer, item } = await sale();
    await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org.id, id: customer.id } }, data: { preferred_language: 'Swahili' } });
    const sw = pdfText(bodyBytes(await agreement(user, item.serial_number).expect(200)));
    if (sw === null) return;
    expect(flat(sw)).toContain('Mkataba wa Lipa Kidogo Kidogo');
    expect(flat(sw)).toContain('Bei ya kumiliki kifaa KES 20,000');
    expect(flat(sw)).toContain('Siku 3 za bure pamoja na namba ya kwanza');
    const en = flat(pdfText(bodyBytes(await agreement(user, item.serial_number, { language: 'en' }).expect(200)))!);
    expect(en).toContain('Pay-As-You-Go Agreement');
    const fr = flat(pdfText(bodyBytes(await agreement(user, item.serial_number, { language: 'fr' }).expect(200)))!);
    expect(fr).toContain("Contrat de paiement à l'usage");
    expect(fr).toContain("Prix total de l'appareil KES 20,000");
    expect(fr).toContain('3 jours gratuits avec le premier code');
    expect(fr).toContain(`en indiquant ${item.serial_number} comme numéro de compte`);
    expect(fr).toContain('7. Modifications.');

    // A phone on a plan of its own, beside the solar home system on the customer's.
    const own = await seedTemplate(t, org.id, { ...SECOND_PLAN, template_name: 'Phone - Weekly' });
    const phone = await seedItem(t, org.id, { serial_number: 'PHN-77', product_name: 'Smartphone A10' });
    await t.http.post('/payg/onboarding').set(user.auth).send({ customer_id: customer.id, item_serial_number: phone.serial_number }).expect(200);
    await t.http.post('/payg/payments/templates/assign').set(user.auth).send({ template_id: own.id, customer_id: customer.id, serial_number: phone.serial_number }).expect(200);
    const text = flat(pdfText(bodyBytes(await agreement(user, phone.serial_number, { language: 'en' }).expect(200)))!);
    expect(text).toContain('Payment plan Phone - Weekly');
    expect(text).toContain('Price to own the device KES 15,000');
    expect(text).toContain('KES 2,000 before the device first works (deposit KES 1,500 and activation KES 500)');
    expect(text).toContain('About 325 days of payments after the first (11 months)');
  });

  it("prints a customer's name in the script it is written in: Ge'ez, Luganda's ŋ, Chichewa's ŵ", async () => {
    const { user, org, customer, item } = await sale();
    await t.db.platform.organization.update({ where: { id: org.id }, data: { name: 'Ŋaali Solar' } });
    await t.db.db.customer.update({
      where: { organization_id_id: { organization_id: org.id, id: customer.id } },
      data: { customer_name: 'Tigist Haile ትዕግሥት ኃይሌ', village: 'Ŵovwe' },
    });
    const text = pdfText(bodyBytes(await agreement(user, item.serial_number).expect(200)));
    if (text === null) return;
    expect(flat(text)).toContain('Customer Name Tigist Haile ትዕግሥት ኃይሌ');
    expect(flat(text)).toContain('Address Ŵovwe, Soy, Uasin Gishu');
    expect(flat(text)).toContain('1. Ownership. The device belongs to Ŋaali Solar until');
  });

  it('is refused for a device with no customer or no plan, an unknown device, a bad language and another organization', async () => {
    const { user, org, item } = await sale();
    const spare = await seedItem(t, org.id, { serial_number: 'SHS-SPARE' });
    expect(messageOf(await agreement(user, spare.serial_number).expect(409))).toBe(
      'Device SHS-SPARE is not assigned to a customer: the agreement is for the customer who takes it',
    );
    const planless = await seedCustomer(t, org.id);
    const cash = await seedItem(t, org.id, { serial_number: 'LMP-CASH' });
    await t.http.post('/payg/onboarding').set(user.auth).send({ customer_id: planless.id, item_serial_number: cash.serial_number }).expect(200);
    expect(messageOf(await agreement(user, cash.serial_number).expect(409))).toBe(
      'Device LMP-CASH has no payment plan: put its customer or the device on a plan first',
    );
    expect(messageOf(await agreement(user, 'NO-SUCH-DEVICE').expect(404))).toBe('Device not found');
    expect(messageOf(await agreement(user, item.serial_number, { language: 'de' }).expect(400))).toMatch(/^language: must be one of en, sw, fr$/);
    const other = await seedTenant(t);
    const res = await agreement(other.user, item.serial_number).expect(404);
    expect(bodyBytes(res).toString()).not.toContain('Chebet');
  });

  it("carries the organization's details, paybill and own terms, which owners and admins set in Settings", async () => {
    const { user, org, item } = await sale();
    const settings = (body?: object) =>
      body === undefined ? t.http.get('/payg/settings/agreement').set(user.auth) : t.http.put('/payg/settings/agreement').set(user.auth).send(body);
    expect((await settings().expect(200)).body).toEqual({ seller_details: null, paybill: null, extra_terms: null });
    const saved = await settings({
      seller_details: '  Box 1234-30100, Eldoret · 0700 111 222  ',
      paybill: '522533',
      extra_terms: 'The battery is under warranty for two years.\n\n\n  A device stolen must be reported to the police\n and to us within 7 days.  \n\n',
    }).expect(200);
    expect(saved.body).toEqual({
      seller_details: 'Box 1234-30100, Eldoret · 0700 111 222',
      paybill: '522533',
      extra_terms: 'The battery is under warranty for two years.\n\n\n  A device stolen must be reported to the police\n and to us within 7 days.',
    });
    const text = flat(pdfText(bodyBytes(await agreement(user, item.serial_number).expect(200)))!);
    expect(text).toContain('Seller Name Jua Power Ltd Box 1234-30100, Eldoret · 0700 111 222');
    expect(text).toContain('The customer pays by mobile money to paybill 522533, giving SHS-2041 as the account number');
    expect(text).toContain('8. The battery is under warranty for two years.');
    expect(text).toContain('9. A device stolen must be reported to the police and to us within 7 days.');
    const entry = await t.db.platform.auditLog.findFirst({ where: { organization_id: org.id, action: 'agreement.settings_updated' } });
    expect(entry?.description).toBe(`${user.username} changed the agreement's seller details, paybill, extra terms`);

    // One field: the others stay; the same again changes nothing and is not recorded.
    expect((await settings({ paybill: '' }).expect(200)).body).toMatchObject({ paybill: null, seller_details: 'Box 1234-30100, Eldoret · 0700 111 222' });
    await settings({ paybill: null }).expect(200);
    expect(await t.db.platform.auditLog.count({ where: { organization_id: org.id, action: 'agreement.settings_updated' } })).toBe(2);

    for (const [body, message] of [
      [{ paybill: '52-2533' }, 'paybill: must be the paybill or till number: 5 to 10 digits'],
      [{ paybill: '1234' }, 'paybill: must be the paybill or till number: 5 to 10 digits'],
      [{ seller_details: 'x'.repeat(301) }, 'seller_details: must be at most 300 characters'],
      [{ extra_terms: 'x'.repeat(4001) }, 'extra_terms: must be at most 4000 characters'],
      [{ terms: 'x' }, 'terms: is not an accepted field'],
    ] as const) {
      expect((await settings(body).expect(400)).body.message).toBe(message);
    }
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await t.http.put('/payg/settings/agreement').set(staff.auth).send({ paybill: '123456' }).expect(403);
    await t.http.get('/payg/settings/agreement').set(staff.auth).expect(403);
    // Another organization's settings are its own.
    const other = await seedTenant(t);
    expect((await t.http.get('/payg/settings/agreement').set(other.user.auth).expect(200)).body).toEqual({ seller_details: null, paybill: null, extra_terms: null });
  });

  it('works out the terms from the plan: no activation, no grace days, a deposit above the price', () => {
    const d = (n: string) => new Prisma.Decimal(n);
    expect(agreementTerms({ currency: 'UGX', payoff: d('350000'), deposit_made: d('50000'), activation_price: d('0'), daily_price: d('1500'), grace_period_days: 0 })).toEqual({
      currency: 'UGX',
      price: 350000,
      upfront: 50000,
      deposit: 50000,
      activation: 0,
      daily: 1500,
      weekly: 10500,
      graceDays: 0,
      days: 200,
    });
    // A deposit as large as the price: nothing left to pay by the day.
    expect(agreementTerms({ currency: 'KES', payoff: d('3000'), deposit_made: d('3500'), activation_price: d('0'), daily_price: d('15'), grace_period_days: 1 })).toMatchObject({ upfront: 3000, days: 0 });
  });
});
