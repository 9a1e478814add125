import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZAccountsImportReportSchema, ZDeviceActivitySchema, type AccountsImportReport } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { binaryParser, bodyBytes, pdfText } from './support/pdf.js';
import { settledAuditEntry } from './support/audit.js';
import { seedCustomer, seedItem, seedTemplate, seedTenant, seedUser, type SeededUser } from './support/factories.js';

const DAY_MS = 86_400_000;
/** Midnight in Nairobi (the tests' business time zone, UTC+3) of a day. */
const nairobi = (day: string) => new Date(`${day}T00:00:00+03:00`);

describe('POST /items/accounts/import (accounts brought over from another system)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const upload = (user: SeededUser, lines: string[], dryRun?: boolean) =>
    t.http
      .post('/payg/items/accounts/import')
      .query(dryRun === undefined ? {} : { dry_run: String(dryRun) })
      .set(user.auth)
      .attach('file', Buffer.from(lines.join('\n') + '\n'), 'accounts.csv');
  const imported = async (user: SeededUser, lines: string[], dryRun?: boolean): Promise<AccountsImportReport> =>
    ZAccountsImportReportSchema.parse((await upload(user, lines, dryRun).expect(200)).body);
  const item = (orgId: string, serial: string) =>
    t.db.db.item.findUniqueOrThrow({ where: { organization_id_serial_number: { organization_id: orgId, serial_number: serial } } });

  /** An organization switching over: a plan, three customers, six devices (one that took 40 codes elsewhere). */
  async function switching() {
    const { user, org } = await seedTenant(t);
    const plan = await seedTemplate(t, org.id, {
      template_name: 'Solar 50',
      deposit_made: '1000',
      activation_price: '500',
      daily_price: '50',
      grace_period_days: 3,
      free_code_price: '20000',
    });
    const amina = await seedCustomer(t, org.id, { customer_name: 'Amina Otieno', id_number: '11111111' });
    const baraka = await seedCustomer(t, org.id, { customer_name: 'Baraka Mwangi', id_number: '22222222' });
    const chebet = await seedCustomer(t, org.id, { customer_name: 'Chebet Koech', id_number: '33333333' });
    for (const serial of ['BO-1', 'BO-2', 'BO-3', 'BO-4', 'BO-5', 'BO-6']) {
      await seedItem(t, org.id, { serial_number: serial, token_count: serial === 'BO-1' ? 40 : 0 });
    }
    return { user, org, plan, amina, baraka, chebet };
  }

  const FILE = [
    'Serial Number,ID Number,Template,Start Date,Paid,Credit Until',
    'BO-1,11111111,Solar 50,2026-01-10,4500,', // row 1: 60 days bought + 3 grace from the start
    'bo 2,22222222,solar 50,15/02/2026,20000,', // row 2: paid off (any spelling of the serial and the plan; day first)
    'BO-3,33333333,Solar 50,2026-03-01,1200,', // row 3: below the 1,500 upfront: held as credit
    'BO-4,11111111,Solar 50,2026-01-10,3000,2099-01-01', // row 4: the other system's credit date, still running
    'BO-404,11111111,,2026-01-01,0,', // row 5: no such device
    'BO-5,99999999,,2026-01-01,,', // row 6: no such customer
    'BO-1,22222222,Solar 50,2026-01-10,1,', // row 7: BO-1 again
    'BO-6,11111111,Nope,2026-01-01,,', // row 8: no such plan
    'BO-6,11111111,,2099-01-01,,', // row 9: starts in the future
    'BO-6,11111111,,2026-13-01,,', // row 10: not a date
    'BO-6,11111111,,2026-02-01,-5,2026-01-01', // row 11: a negative amount, a credit date before the start
  ];

  it('checks the file without keeping anything, then brings the accounts over as the check said', async () => {
    const { user, org, plan, amina, baraka, chebet } = await switching();
    const check = await imported(user, FILE, true);
    const expected = {
      dry_run: true,
      rows: 11,
      imported: 4,
      skipped: 7,
      duplicates: 0,
      paid_off: 1,
      in_credit: 1,
      paid_before: [{ currency: 'KES', amount: '28700.00' }],
      more_errors: 0,
    };
    expect(check).toMatchObject({ ...expected, job_id: null });
    expect(check.errors).toEqual([
      { row: 5, field: 'serial_number', message: 'no device BO-404 (import the devices first)' },
      { row: 6, field: 'id_number', message: 'no customer with ID number 99999999 (import the customers first)' },
      { row: 7, field: 'serial_number', message: 'device BO-1 is on line 2 already' },
      { row: 8, field: 'template', message: 'no payment template named Nope' },
      { row: 9, field: 'start_date', message: 'is in the future' },
      { row: 10, field: 'start_date', message: 'must be a date: YYYY-MM-DD or DD/MM/YYYY' },
      { row: 11, field: 'paid', message: 'must be at least 0' },
    ]);
    // Nothing kept by the check: no device given, no plan, no job, no audit entry, no webhook event.
    expect(await t.db.db.itemAssignment.count({ where: { organization_id: org.id } })).toBe(0);
    expect(await t.db.db.templateAssignment.count({ where: { organization_id: org.id } })).toBe(0);
    expect((await item(org.id, 'BO-1')).is_assigned).toBe(false);
    expect(await t.db.db.importJob.count({ where: { organization_id: org.id } })).toBe(0);
    expect(await t.db.platform.auditLog.count({ where: { organization_id: org.id } })).toBe(0);

    const done = await imported(user, FILE);
    expect(done).toMatchObject({ ...expected, dry_run: false });
    expect(done.errors).toEqual(check.errors);
    expect(done.job_id).toMatch(/^[0-9a-f-]{36}$/);

    const bo1 = await item(org.id, 'BO-1');
    expect(bo1).toMatchObject({ is_assigned: true, status: 'assigned', customer_id: amina.id, token_count: 40, free_days: 0 });
    expect(bo1.assigned_at).toEqual(nairobi('2026-01-10'));
    expect(bo1.activated_at).toEqual(nairobi('2026-01-10'));
    expect(bo1.total_paid.toFixed(2)).toBe('4500.00');
    expect(bo1.credit.toFixed(2)).toBe('0.00');
    // (4,500 − 1,500 upfront) ÷ 50 = 60 days, and the 3 grace days.
    expect(bo1.credit_until).toEqual(new Date(nairobi('2026-01-10').getTime() + 63 * DAY_MS));
    expect(bo1.paid_off_at).toBeNull();

    const bo2 = await item(org.id, 'BO-2');
    expect(bo2).toMatchObject({ customer_id: baraka.id, credit_until: null });
    expect(bo2.paid_off_at).not.toBeNull();
    expect(bo2.assigned_at).toEqual(nairobi('2026-02-15'));

    const bo3 = await item(org.id, 'BO-3');
    expect(bo3).toMatchObject({ customer_id: chebet.id, activated_at: null, credit_until: null });
    expect(bo3.credit.toFixed(2)).toBe('1200.00');

    // A credit date written as a day runs to the end of that day.
    expect((await item(org.id, 'BO-4')).credit_until).toEqual(nairobi('2099-01-02'));
    expect((await item(org.id, 'BO-6')).is_assigned).toBe(false);

    // Each customer on the plan (their first), from the day the account began; the rows keep what was paid before.
    const plans = await t.db.db.templateAssignment.findMany({ where: { organization_id: org.id, is_active: true }, orderBy: { customer_id: 'asc' } });
    expect(plans.map((p) => [p.customer_id, p.template_id, p.item_id])).toEqual([
      [amina.id, plan.id, null],
      [baraka.id, plan.id, null],
      [chebet.id, plan.id, null],
    ]);
    const rows = await t.db.db.itemAssignment.findMany({ where: { organization_id: org.id }, orderBy: { item_id: 'asc' } });
    expect(rows.map((r) => r.brought_over_paid?.toFixed(2))).toEqual(['4500.00', '20000.00', '1200.00', '3000.00']);
    expect(rows.every((r) => r.brought_over_at !== null && r.assigned_by === user.username)).toBe(true);

    // Audited row by row and as a whole; each a device.assigned webhook event that says it was brought over.
    const audit = await t.db.platform.auditLog.findMany({ where: { organization_id: org.id }, orderBy: { id: 'asc' } });
    expect(audit.filter((a) => a.action === 'item.account_brought_over').map((a) => a.entity_id)).toEqual(['BO-1', 'BO-2', 'BO-3', 'BO-4']);
    expect(audit.find((a) => a.action === 'accounts.imported')?.description).toBe(
      'Imported 4 accounts brought over from accounts.csv (7 skipped: 0 already there, 7 invalid)',
    );

    // The same file again imports nothing: the four are already there.
    const again = await imported(user, FILE);
    expect(again).toMatchObject({ imported: 0, duplicates: 4, skipped: 11, paid_off: 0, paid_before: [] });
    expect(await t.db.db.itemAssignment.count({ where: { organization_id: org.id } })).toBe(4);
  });

  it('is an account like any other afterwards: its page, its standing, the next payment continues the count', async () => {
    const { user, org } = await switching();
    const start = new Date(Date.now() - 100 * DAY_MS).toISOString().slice(0, 10);
    await imported(user, ['serial_number,id_number,start_date,paid,template', `BO-1,11111111,${start},4500,Solar 50`]);

    const activity = ZDeviceActivitySchema.parse((await t.http.get('/payg/devices/BO-1/activity').set(user.auth).expect(200)).body);
    const info = activity.data.device_info;
    expect(info.brought_over).toEqual({
      paid: '4500.00',
      started_at: nairobi(start).toISOString(),
      imported_at: expect.any(String),
      imported_by: user.username,
    });
    expect(info.total_paid).toBe('4500.00');
    expect(info.remaining).toBe('15500.00');
    // What the plan expects counts from the day the account began there: 1,500 + 50 × (100 − 3) days.
    const days = Math.floor((Date.now() - nairobi(start).getTime()) / DAY_MS);
    expect(info.repayment.expected_by_today).toBe((1500 + 50 * (days - 3)).toFixed(2));
    expect(info.repayment.paid_towards).toBe('4500.00');

    // The customer's totals: no payment received in Kidogo yet, 4,500 paid before.
    const customerId = (await t.db.db.customer.findFirstOrThrow({ where: { organization_id: org.id, id_number: '11111111' } })).id;
    const status = (await t.http.get(`/payg/customers/${customerId}/status`).set(user.auth).expect(200)).body;
    expect(status).toMatchObject({ total_paid: '0.00', payments_count: 0, paid_before: '4500.00', balance: '15500.00' });
    const details = (await t.http.get(`/payg/customers/${customerId}/payment-details`).set(user.auth).expect(200)).body;
    expect(details.data.payment_summary).toMatchObject({ total_paid: '0.00', paid_before: '4500.00', remaining_balance: '15500.00' });

    // The customer's statement says where the 4,500 in Paid came from.
    const amina = await t.db.db.customer.findFirstOrThrow({ where: { organization_id: org.id, id_number: '11111111' } });
    const pdf = await t.http.get(`/payg/customers/${amina.id}/statement`).set(user.auth).buffer(true).parse(binaryParser).expect(200);
    expect(pdfText(bodyBytes(pdf))?.replace(/\s+/g, ' ')).toContain(
      `BO-1: its account was brought over from another system, where it began on ${start}; Paid includes the 4,500.00 paid there before.`,
    );

    // 100 buys two days; the code is the 41st the device takes (it took 40 elsewhere).
    const pay = await t.http.post('/payg/payments').set(user.auth).send({ serial_number: 'BO-1', amount: 100, payment_method: 'cash' }).expect(201);
    expect(JSON.stringify(pay.body)).toContain('add_time');
    const after = await item(org.id, 'BO-1');
    expect(after.token_count).toBeGreaterThan(40);
    expect(after.total_paid.toFixed(2)).toBe('4600.00');
  });

  it('puts the device on a plan of its own when its customer is on another, and takes the customer\'s plan when none is named', async () => {
    const { user, org, amina, baraka } = await switching();
    const phonePlan = await seedTemplate(t, org.id, { template_name: 'Phone 40', daily_price: '40', free_code_price: '8000' });
    // What was paid as a spreadsheet writes it, thousands grouped.
    await imported(user, ['serial_number,id_number,template,start_date,paid', 'BO-1,11111111,Solar 50,2026-01-10,"2,000.00"']);
    expect((await item(org.id, 'BO-1')).total_paid.toFixed(2)).toBe('2000.00');
    // Amina is on Solar 50 now: her phone is on its own plan.
    await imported(user, ['serial_number,id_number,template,start_date,paid', `BO-2,11111111,${phonePlan.id},2026-02-01,8000`]);
    const own = await t.db.db.templateAssignment.findMany({ where: { organization_id: org.id, customer_id: amina.id, is_active: true } });
    expect(own.map((p) => [p.template_id, p.item_id !== null]).sort()).toEqual([
      [own.find((p) => p.item_id === null)!.template_id, false],
      [phonePlan.id, true],
    ].sort());
    expect((await item(org.id, 'BO-2')).paid_off_at).not.toBeNull();

    // No plan named: the customer's, for what it bought.
    await t.db.db.templateAssignment.create({ data: { organization_id: org.id, customer_id: baraka.id, template_id: phonePlan.id, is_active: true } });
    await imported(user, ['serial_number,id_number,start_date,paid', 'BO-3,22222222,2026-03-01,400']);
    expect((await item(org.id, 'BO-3')).credit_until).toEqual(new Date(nairobi('2026-03-01').getTime() + 10 * DAY_MS));
  });

  it('refuses a device Kidogo has given before, one retired, and names the plan when two share its name', async () => {
    const { user, org, amina } = await switching();
    await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: amina.id, item_serial_number: 'BO-1' }).expect(200);
    await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: amina.id, item_serial_number: 'BO-2' }).expect(200);
    await t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: 'BO-2' }).expect(200);
    await t.http.put('/payg/items/BO-3').set(user.auth).send({ status: 'retired' }).expect(200);
    const twin = await seedTemplate(t, org.id, { template_name: 'Solar 50' });
    const report = await imported(user, [
      'serial_number,id_number,start_date,template',
      'BO-1,11111111,2026-01-01,',
      'BO-2,22222222,2026-01-01,',
      'BO-3,22222222,2026-01-01,',
      'BO-4,22222222,2026-01-01,solar 50',
    ]);
    expect(report.imported).toBe(0);
    expect(report.errors.map((e) => [e.row, e.field, e.message])).toEqual([
      [1, 'serial_number', 'device BO-1 is assigned to a customer in Kidogo already'],
      [2, 'serial_number', 'device BO-2 has had an account in Kidogo already: give it with Assign Product'],
      [3, 'serial_number', 'device BO-3 is retired'],
      [4, 'template', `2 payment templates are named solar 50: give its number (${[...(await t.db.db.paymentTemplate.findMany({ where: { organization_id: org.id, template_name: 'Solar 50' }, orderBy: { id: 'asc' } }))].map((p) => p.id).join(' or ')})`],
    ]);
    expect(twin.id).toBeGreaterThan(0);
    expect((await item(org.id, 'BO-4')).is_assigned).toBe(false);
  });

  it('is for owners and admins; a file without its columns, or a bad dry_run, is a 400 that keeps nothing', async () => {
    const { org } = await switching();
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await upload(staff, ['serial_number,id_number,start_date', 'BO-1,11111111,2026-01-01']).expect(403);
    const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
    const missing = await upload(admin, ['serial_number,paid', 'BO-1,100']).expect(400);
    expect(missing.body.message).toBe(
      'file: missing required columns id_number, start_date (the first line must name the columns, e.g. serial_number,id_number,start_date)',
    );
    const bad = await upload(admin, ['serial_number,id_number,start_date', 'BO-1,11111111,2026-01-01'], 'maybe' as unknown as boolean).expect(400);
    expect(bad.body.message).toBe('dry_run: must be one of true, false');
    await t.http.post('/payg/items/accounts/import').set(admin.auth).expect(400);
    expect(await t.db.db.itemAssignment.count({ where: { organization_id: org.id } })).toBe(0);
    expect(await t.db.db.importJob.count({ where: { organization_id: org.id } })).toBe(0);
  });

  it('exports the accounts in the columns of the import: the file brings the same book into another organization', async () => {
    const a = await switching();
    await imported(a.user, FILE);
    // A payment in Kidogo since: the export carries the account as it is now.
    await t.http.post('/payg/payments').set(a.user.auth).send({ serial_number: 'BO-3', amount: 300, payment_method: 'cash' }).expect(201);
    const res = await t.http.get('/payg/items/accounts/export').set(a.user.auth).buffer(true).parse(binaryParser).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toContain('accounts.csv');
    const lines = bodyBytes(res).toString('utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('serial_number,id_number,template,start_date,paid,credit_until,customer_name,phone_contact');
    const bo3 = await item(a.org.id, 'BO-3');
    const local = (d: Date) => new Date(d.getTime() + 3 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 6))).toEqual([
      ['BO-1', '11111111', 'Solar 50', '2026-01-10', '4500.00', '2026-03-14 00:00:00'],
      ['BO-2', '22222222', 'Solar 50', '2026-02-15', '20000.00', ''],
      // 1,200 held and 300 paid: activated with 1,500, no day bought beyond it, 3 grace days from the payment.
      ['BO-3', '33333333', 'Solar 50', '2026-03-01', '1500.00', local(bo3.credit_until!)],
      ['BO-4', '11111111', 'Solar 50', '2026-01-10', '3000.00', '2099-01-02 00:00:00'],
    ]);
    // Written once the file is sent, just after the reply.
    expect(await settledAuditEntry(t, { organization_id: a.org.id, action: 'accounts.exported' })).toMatchObject({ description: 'Exported 4 accounts to CSV' });
    expect(await t.db.platform.auditLog.count({ where: { organization_id: a.org.id, action: 'accounts.exported' } })).toBe(1);

    // Another organization with the same customers, devices and plan takes the file as it is.
    const b = await switching();
    const again = await imported(b.user, lines);
    expect(again).toMatchObject({ imported: 4, skipped: 0, paid_off: 1 });
    for (const serial of ['BO-1', 'BO-2', 'BO-3', 'BO-4']) {
      const [x, y] = [await item(a.org.id, serial), await item(b.org.id, serial)];
      // The credit date to the second (the file's precision).
      const second = (d: Date | null) => d && Math.floor(d.getTime() / 1000);
      expect([y.total_paid.toFixed(2), y.assigned_at, second(y.credit_until), y.paid_off_at === null]).toEqual([
        x.total_paid.toFixed(2),
        x.assigned_at,
        second(x.credit_until),
        x.paid_off_at === null,
      ]);
    }
    const staff = await seedUser(t, { organization_id: a.org.id, role: 'staff' });
    await t.http.get('/payg/items/accounts/export').set(staff.auth).expect(403);
  });

  it("never reaches another organization's devices or customers", async () => {
    const a = await switching();
    const b = await seedTenant(t);
    await seedItem(t, b.org.id, { serial_number: 'B-ONLY' });
    await seedCustomer(t, b.org.id, { id_number: '44444444' });
    // A's device for B's customer, B's device for A's customer.
    const report = await imported(b.user, ['serial_number,id_number,start_date,paid', 'BO-1,44444444,2026-01-01,100', 'B-ONLY,11111111,2026-01-01,100']);
    expect(report.imported).toBe(0);
    expect(report.errors.map((e) => e.field)).toEqual(['serial_number', 'id_number']);
    expect((await item(a.org.id, 'BO-1')).is_assigned).toBe(false);
    expect(await t.db.db.itemAssignment.count({ where: { organization_id: a.org.id } })).toBe(0);
    expect(await t.db.platform.auditLog.count({ where: { organization_id: a.org.id } })).toBe(0);
  });

  it('is no sale of the sales agent: the Agent report and the portfolio do not count it as a device given', async () => {
    const { user, org } = await switching();
    await t.db.db.customer.updateMany({ where: { organization_id: org.id }, data: { agent_id: 'AG-7' } });
    await imported(user, ['serial_number,id_number,start_date,paid', `BO-1,11111111,${new Date().toISOString().slice(0, 10)},100`]);
    await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: (await t.db.db.customer.findFirstOrThrow({ where: { organization_id: org.id, id_number: '22222222' } })).id, item_serial_number: 'BO-2' }).expect(200);
    const res = await t.http.post('/payg/reports/page').set(user.auth).send({ report: 'agents' }).expect(200);
    const row = (res.body.rows as { agent: string; devices_given: number }[]).find((r) => r.agent === 'AG-7');
    expect(row?.devices_given).toBe(1);
    // Nor a cohort of the portfolio: what was paid on it before is not dated.
    const portfolio = await t.http.post('/payg/reports/page').set(user.auth).send({ report: 'portfolio' }).expect(200);
    expect(portfolio.body.totals).toMatchObject({ accounts: 1 });
  });
});
