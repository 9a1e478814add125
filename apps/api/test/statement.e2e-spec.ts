import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomer, seedItem, seedTemplate, seedTenant, type SeededUser } from './support/factories.js';
import { README_PLAN, SECOND_PLAN, payCash } from './support/plans.js';
import { binaryParser, bodyBytes, pdfText } from './support/pdf.js';

// A customer's statement of account (GET /customers/{id}/statement): their
// devices with each one's plan and balance, the payments and tokens of a
// period, as a PDF.

describe('a customer’s statement of account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const statement = (user: SeededUser, customerId: number, query: Record<string, string> = {}) =>
    t.http.get(`/payg/customers/${customerId}/statement`).query(query).set(user.auth).buffer(true).parse(binaryParser);
  const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Nairobi' }).format(new Date());

  /** A customer with a lamp on the customer's plan and a phone on its own, 2,400 paid on each. */
  async function payingCustomer() {
    const { user, org } = await seedTenant(t);
    const customer = await seedCustomer(t, org.id, { customer_name: 'Chebet C' });
    const lampPlan = await seedTemplate(t, org.id, { ...README_PLAN, template_name: 'Lamp plan' });
    const phonePlan = await seedTemplate(t, org.id, { ...SECOND_PLAN, template_name: 'Phone plan' });
    const lamp = await seedItem(t, org.id, { token_count: 1, serial_number: 'LAMP-0001' });
    const phone = await seedItem(t, org.id, { token_count: 1, product_name: 'Smartphone', serial_number: 'PHONE-0002' });
    await t.http.post('/payg/onboarding').set(user.auth).send({ customer_id: customer.id, item_serial_number: lamp.serial_number, template_id: lampPlan.id }).expect(200);
    await t.http.post('/payg/onboarding').set(user.auth).send({ customer_id: customer.id, item_serial_number: phone.serial_number, template_id: phonePlan.id }).expect(200);
    const paidLamp = await payCash(t, user, lamp.serial_number, '2400.00');
    const paidPhone = await payCash(t, user, phone.serial_number, '2400.00');
    return { user, org, customer, lamp, phone, tokens: [paidLamp.token!, paidPhone.token!] };
  }

  it('lists the devices with their plans and balances, the payments with their total, and the tokens', async () => {
    const { user, customer, lamp, phone, tokens } = await payingCustomer();
    const res = await statement(user, customer.id).expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="statement-${customer.id}-${today()}.pdf"`);
    expect(res.headers['cache-control']).toBe('no-store');
    const pdf = bodyBytes(res);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    if (text === null) return;
    expect(text).toContain('Statement of account');
    expect(text).toContain('Chebet C');
    expect(text).toContain('Period: all time');
    expect(text).toContain('(Africa/Nairobi)');
    // Devices: each on its plan, 2,400 paid, the rest of its payoff price left.
    expect(text).toMatch(new RegExp(`${lamp.serial_number}\\s+Solar Home System 50W\\s+Lamp plan \\(50\\.00/day\\)\\s+2,400\\.00\\s+17,600\\.00`));
    expect(text).toMatch(new RegExp(`${phone.serial_number}\\s+Smartphone\\s+Phone plan \\(40\\.00/day\\)\\s+2,400\\.00\\s+12,600\\.00`));
    // Payments: the lamp's 18 days, the phone's 10 (grace days are in the tokens, not bought), and the total.
    expect(text).toMatch(new RegExp(`${lamp.serial_number}\\s+Cash\\s+(\\S+\\s+)?KES 2,400\\.00\\s+18`));
    expect(text).toMatch(new RegExp(`${phone.serial_number}\\s+Cash\\s+(\\S+\\s+)?KES 2,400\\.00\\s+10`));
    expect(text).toMatch(/Total paid\s+2 payments\s+KES 4,800\.00\s+28/);
    // Tokens, grouped as on the keypad, with the days they carry.
    const group = (token: string) => token.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
    expect(text).toMatch(new RegExp(`${lamp.serial_number}\\s+Activation\\s+21\\s+${group(tokens[0])}`));
    expect(text).toMatch(new RegExp(`${phone.serial_number}\\s+Activation\\s+12\\s+${group(tokens[1])}`));
    expect(text).toContain('Page 1');
  });

  it('lists the discounts given, so a balance that fell without a payment is explained; none, no section', async () => {
    const { user, customer, lamp } = await payingCustomer();
    const before = pdfText(bodyBytes(await statement(user, customer.id).expect(200)));
    if (before !== null) expect(before).not.toContain('Discounts');
    await t.http.post('/payg/items/discount').set(user.auth).send({ item_serial_number: lamp.serial_number, amount: '2600', reason: 'Paying off early' }).expect(201);
    const text = pdfText(bodyBytes(await statement(user, customer.id).expect(200)));
    if (text === null) return;
    // The lamp's balance is 17,600 − 2,600, and the discount says why.
    expect(text).toMatch(new RegExp(`${lamp.serial_number}\\s+Solar Home System 50W\\s+Lamp plan \\(50\\.00/day\\)\\s+2,400\\.00\\s+15,000\\.00`));
    expect(text).toContain('Discounts');
    expect(text).toMatch(new RegExp(`${lamp.serial_number}\\s+Paying off early\\s+KES 2,600\\.00\\s+KES 15,000\\.00`));
    const sw = pdfText(bodyBytes(await statement(user, customer.id, { language: 'sw' }).expect(200)));
    expect(sw).toContain('Punguzo');
  });

  it('keeps to the period: none of it before today', async () => {
    const { user, customer, lamp } = await payingCustomer();
    const text = pdfText(bodyBytes(await statement(user, customer.id, { from: '2020-01-01', to: '2020-12-31' }).expect(200)));
    if (text === null) return;
    expect(text).toContain('Period: 2020-01-01 to 2020-12-31');
    expect(text).toContain('No payments in this period.');
    expect(text).toContain('No tokens in this period.');
    expect(text).toMatch(/Total paid\s+0 payments\s+0\.00\s+0/);
    // The devices are listed whatever the period: what is left is as of now.
    expect(text).toContain(lamp.serial_number);
  });

  it('lists at most 5,000 payments, and says how to see the rest', async () => {
    const { user, org } = await seedTenant(t);
    const busy = await seedCustomer(t, org.id, { customer_name: 'Busy B' });
    await t.db.db.$executeRaw`
      INSERT INTO payments (organization_id, customer_id, amount, status, payment_method, source, paid_at)
      SELECT ${org.id}, ${busy.id}::int, 10, 'completed', 'cash', 'manual', now() - make_interval(mins => n)
      FROM generate_series(1, 5001) AS n`;
    const text = pdfText(bodyBytes(await statement(user, busy.id).expect(200)));
    if (text === null) return;
    expect(text).toMatch(/Total paid\s+5,001 payments\s+KES 50,010\.00/);
    expect(text).toContain('The first 5,000 payments of the period; choose a shorter period for the rest.');
    expect(text).toContain('Page 2');
  });

  it('says so for a customer without devices or payments', async () => {
    const { user, org } = await seedTenant(t);
    const lonely = await seedCustomer(t, org.id, { customer_name: 'Lone L' });
    const text = pdfText(bodyBytes(await statement(user, lonely.id).expect(200)));
    if (text === null) return;
    expect(text).toContain('No devices.');
    expect(text).toContain('No payments in this period.');
  });

  it("is in the customer's language, Kiswahili for a Swahili speaker, or the one asked for", async () => {
    const { user, org, customer, lamp } = await payingCustomer();
    await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org.id, id: customer.id } }, data: { preferred_language: 'Swahili' } });
    const sw = pdfText(bodyBytes(await statement(user, customer.id).expect(200)));
    const en = pdfText(bodyBytes(await statement(user, customer.id, { language: 'en' }).expect(200)));
    if (sw === null || en === null) return;
    expect(sw).toContain('Taarifa ya akaunti');
    expect(sw).toContain('Kipindi: tangu mwanzo');
    expect(sw).toMatch(new RegExp(`${lamp.serial_number}\\s+Solar Home System 50W\\s+Lamp plan \\(50\\.00/siku\\)\\s+2,400\\.00\\s+17,600\\.00`));
    expect(sw).toMatch(new RegExp(`${lamp.serial_number}\\s+Taslimu\\s+(\\S+\\s+)?KES 2,400\\.00\\s+18`));
    expect(sw).toMatch(/Jumla iliyolipwa\s+malipo 2\s+KES 4,800\.00\s+28/);
    expect(sw).toMatch(new RegExp(`${lamp.serial_number}\\s+Kuwasha\\s+21`));
    expect(sw).not.toContain('Statement of account');
    expect(en).toContain('Statement of account');
    expect(en).toMatch(/Total paid\s+2 payments/);
    // And the other way round: an English speaker's statement in Kiswahili when asked.
    const lonely = await seedCustomer(t, org.id, { customer_name: 'Lone L' });
    const asked = pdfText(bodyBytes(await statement(user, lonely.id, { language: 'sw', from: '2026-01-01' }).expect(200)));
    expect(asked).toContain('Hakuna vifaa.');
    expect(asked).toContain('Hakuna malipo katika kipindi hiki.');
    expect(asked).toContain('Kipindi: 2026-01-01 hadi leo');
    // A French speaker's, with its accents.
    await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org.id, id: customer.id } }, data: { preferred_language: 'French' } });
    const fr = pdfText(bodyBytes(await statement(user, customer.id).expect(200)))!;
    expect(fr).toContain('Relevé de compte');
    expect(fr).toContain('Période : depuis le début');
    expect(fr).toMatch(new RegExp(`${lamp.serial_number}\\s+Solar Home System 50W\\s+Lamp plan \\(50\\.00/jour\\)\\s+2,400\\.00\\s+17,600\\.00`));
    expect(fr).toMatch(new RegExp(`${lamp.serial_number}\\s+Espèces\\s+(\\S+\\s+)?KES 2,400\\.00\\s+18`));
    expect(fr).toMatch(/Total payé\s+2 paiements\s+KES 4,800\.00\s+28/);
    const bad = await t.http.get(`/payg/customers/${customer.id}/statement`).query({ language: 'de' }).set(user.auth).expect(400);
    expect(bad.body.errors).toEqual([{ field: 'language', message: 'must be one of en, sw, fr' }]);
  });

  it('refuses a bad period naming the field, an unknown customer, and another organization’s customer', async () => {
    const { user, customer } = await payingCustomer();
    const bad = await t.http.get(`/payg/customers/${customer.id}/statement`).query({ from: '2026-13-01' }).set(user.auth).expect(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'from' })]);
    const reversed = await t.http.get(`/payg/customers/${customer.id}/statement`).query({ from: '2026-02-01', to: '2026-01-01' }).set(user.auth).expect(400);
    expect(reversed.body.errors).toEqual([{ field: 'from', message: 'must not be after to' }]);
    await t.http.get('/payg/customers/999999/statement').set(user.auth).expect(404);
    await t.http.get('/payg/customers/abc/statement').set(user.auth).expect(400);
    const other = await seedTenant(t);
    const theirs = await t.http.get(`/payg/customers/${customer.id}/statement`).set(other.user.auth).expect(404);
    expect(theirs.body).toMatchObject({ detail: 'Customer not found' });
    await t.http.get(`/payg/customers/${customer.id}/statement`).expect(401);
  });
});
