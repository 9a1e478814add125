import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZReminderSettingsSchema } from '@kidogo/contracts';
import { Calendar } from '../src/common/calendar.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { REMINDER_BATCH, RemindersService } from '../src/reminders/reminders.service.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomerWithDevice, seedTenant, type SeededUser } from './support/factories.js';

// Payment reminders: an SMS to the customer days_before business days before
// a device's credit runs out, made from send_hour, once per device and day.

const HOUR = 3_600_000;

describe('payment reminders', () => {
  let t: TestApp;
  let reminders: RemindersService;
  const cal = new Calendar('Africa/Nairobi');
  const today = cal.today();
  /** An hour of a business day in Nairobi, days from today. */
  const at = (days: number, hour: number) => new Date(cal.startOf(today + days).getTime() + hour * HOUR);

  beforeAll(async () => {
    t = await createTestApp();
    reminders = t.app.get(RemindersService);
  });
  afterAll(() => t.close());

  const read = async (user: SeededUser) =>
    ZReminderSettingsSchema.parse((await t.http.get('/payg/settings/reminders').set(user.auth).expect(200)).body);
  const put = (user: SeededUser, body: object) => t.http.put('/payg/settings/reminders').set(user.auth).send(body);
  const withSms = (user: SeededUser) =>
    t.http
      .put('/payg/settings/sms-provider')
      .set(user.auth)
      .send({ provider: 'sms_webhook', config: { url: 'http://127.0.0.1:9/sms' } })
      .expect(200);
  /** The organization's queued reminders: the outgoing messages with no payment. */
  const queued = (orgId: string) =>
    t.db.query<{ item_id: number; recipient_number: string; forwarded_message: string; delivery_status: string }>(Prisma.sql`
      SELECT item_id, recipient_number, forwarded_message, delivery_status::text FROM messages
      WHERE organization_id = ${orgId} AND payment_id IS NULL AND forwarded_message IS NOT NULL ORDER BY message_id`);
  const device = async (orgId: string, creditUntil: Date | null, opts: { paidOff?: boolean; name?: string; plan?: boolean } = {}) => {
    const d = await seedCustomerWithDevice(t, orgId, { template: { daily_price: '45.00', currency: 'KES' } });
    if (opts.name) {
      await t.db.db.customer.update({ where: { organization_id_id: { organization_id: orgId, id: d.customer.id } }, data: { customer_name: opts.name } });
    }
    if (opts.plan === false) await t.db.db.templateAssignment.updateMany({ where: { organization_id: orgId, customer_id: d.customer.id }, data: { is_active: false } });
    await t.db.db.item.update({
      where: { organization_id_id: { organization_id: orgId, id: d.item.id } },
      data: { credit_until: creditUntil, ...(opts.paidOff ? { paid_off_at: new Date() } : {}) },
    });
    return d;
  };

  it('are off until turned on, with their defaults and a preview', async () => {
    const { user } = await seedTenant(t);
    expect(await read(user)).toEqual({
      enabled: false,
      days_before: 1,
      send_hour: 9,
      time_zone: 'Africa/Nairobi',
      language: 'en',
      can_send: false,
      preview: 'Kidogo: Hi Grace, the credit on device SHS-0042 runs out tomorrow. Pay KES 50.00 a day to account SHS-0042 to keep it on.',
      sent_30_days: 0,
      last_sent_at: null,
    });
    await withSms(user);
    const on = ZReminderSettingsSchema.parse((await put(user, { enabled: true, days_before: 0 }).expect(200)).body);
    expect(on).toMatchObject({ enabled: true, days_before: 0, send_hour: 9, can_send: true });
    expect(on.preview).toContain('runs out today.');
    // A field left out keeps its value.
    expect(ZReminderSettingsSchema.parse((await put(user, { send_hour: 7 }).expect(200)).body)).toMatchObject({ enabled: true, days_before: 0, send_hour: 7 });
  });

  it.each([
    [{ days_before: 8 }, 'days_before: must be at most 7'],
    [{ days_before: -1 }, 'days_before: must be at least 0'],
    [{ days_before: 1.5 }, 'days_before: must be a whole number'],
    [{ send_hour: 24 }, 'send_hour: must be at most 23'],
    [{ send_hour: '9' }, 'send_hour: must be a whole number'],
    [{ enabled: 'yes' }, 'enabled: must be true or false'],
  ])('refuses %j with a 400 naming the field, and changes nothing', async (body, message) => {
    const { user } = await seedTenant(t);
    const before = await read(user);
    const res = await put(user, { enabled: true, ...body }).expect(400);
    expect(res.body.message).toContain(message);
    expect(await read(user)).toEqual(before);
  });

  it('refuses a field it does not know', async () => {
    const { user } = await seedTenant(t);
    const res = await put(user, { enabled: true, hour: 9 }).expect(400);
    expect(res.body.message).toMatch(/hour/);
    expect((await read(user)).enabled).toBe(false);
  });

  it("is a manager's setting: staff may not read or change it", async () => {
    const { user } = await seedTenant(t, { role: 'staff' });
    await t.http.get('/payg/settings/reminders').set(user.auth).expect(403);
    await put(user, { enabled: true }).expect(403);
  });

  it('reminds each device whose credit runs out on the chosen day, once, from the chosen hour', async () => {
    const { org, user } = await seedTenant(t);
    await withSms(user);
    await put(user, { enabled: true, days_before: 1, send_hour: 9 }).expect(200);
    const tomorrow = await device(org.id, at(1, 15), { name: 'Grace Achieng' });
    const noPlan = await device(org.id, at(1, 2), { name: 'Peter Kamau', plan: false });
    await device(org.id, at(0, 18)); // today: not the chosen day
    await device(org.id, at(2, 12)); // the day after tomorrow
    await device(org.id, at(1, 12), { paidOff: true }); // paid off: never
    await device(org.id, null); // never paid: no credit to run out

    // Before 09:00 in Nairobi: nothing yet.
    await reminders.sweep(at(0, 8));
    expect(await queued(org.id)).toEqual([]);

    await reminders.sweep(at(0, 10));
    const made = await queued(org.id);
    expect(made).toEqual([
      {
        item_id: noPlan.item.id,
        recipient_number: noPlan.customer.phone_normalized,
        forwarded_message: `Kidogo: Hi Peter, the credit on device ${noPlan.item.serial_number} runs out tomorrow. Pay to account ${noPlan.item.serial_number} to keep it on.`,
        delivery_status: 'queued',
      },
      {
        item_id: tomorrow.item.id,
        recipient_number: tomorrow.customer.phone_normalized,
        forwarded_message: `Kidogo: Hi Grace, the credit on device ${tomorrow.item.serial_number} runs out tomorrow. Pay KES 45.00 a day to account ${tomorrow.item.serial_number} to keep it on.`,
        delivery_status: 'queued',
      },
    ]);

    // Swept again, and by another API process on the same database at the same moment: still once.
    const other = await createTestApp({ databaseUrl: t.databaseUrl });
    try {
      await Promise.all([reminders.sweep(at(0, 11)), other.app.get(RemindersService).sweep(at(0, 11))]);
    } finally {
      await other.close();
    }
    expect(await queued(org.id)).toHaveLength(2);

    // A device being repaired is not reminded while its ticket is open; once resolved, the next sweep reminds it.
    const repaired = await device(org.id, at(1, 16), { name: 'Juma Otieno' });
    const ticket = (await t.http.post('/payg/tickets').set(user.auth).send({ serial_number: repaired.item.serial_number, category: 'device_fault', description: 'No light' }).expect(201))
      .body.data.ticket_id as number;
    await reminders.sweep(at(0, 12));
    expect((await queued(org.id)).some((m) => m.item_id === repaired.item.id)).toBe(false);
    await t.http.patch(`/payg/tickets/${ticket}`).set(user.auth).send({ status: 'resolved', resolution: 'New bulb' }).expect(200);
    await reminders.sweep(at(0, 13));
    expect((await queued(org.id)).filter((m) => m.item_id === repaired.item.id)).toHaveLength(1);

    // A payment moves Grace's credit to another day: reminded again when that day comes near.
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: tomorrow.item.id } }, data: { credit_until: at(4, 15) } });
    await reminders.sweep(at(3, 9));
    const again = (await queued(org.id)).filter((m) => m.item_id === tomorrow.item.id);
    expect(again).toHaveLength(2);

    // They show in the device's history and in the settings' count.
    const activity = (await t.http.get(`/payg/devices/${tomorrow.item.serial_number}/activity`).set(user.auth).expect(200)).body;
    expect(JSON.stringify(activity)).toContain('runs out tomorrow');
    const settings = await read(user);
    expect(settings.sent_30_days).toBe(4);
    expect(settings.last_sent_at).not.toBeNull();
  });

  it('in Kiswahili when replies are, and on the day itself with days_before 0', async () => {
    const { org, user } = await seedTenant(t);
    await t.http
      .put('/payg/settings/sms-provider')
      .set(user.auth)
      .send({ provider: 'sms_webhook', reply_language: 'sw', config: { url: 'http://127.0.0.1:9/sms' } })
      .expect(200);
    await put(user, { enabled: true, days_before: 0, send_hour: 6 }).expect(200);
    const d = await device(org.id, at(0, 20), { name: 'Amina Wanjiru' });
    await device(org.id, at(0, 5)); // ran out before the sweep: too late to remind
    await reminders.sweep(at(0, 7));
    expect((await queued(org.id)).map((m) => m.forwarded_message)).toEqual([
      `Kidogo: Habari Amina, salio la kifaa ${d.item.serial_number} litaisha leo. Lipa KES 45.00 kwa siku kwa akaunti ${d.item.serial_number} ili kiendelee kufanya kazi.`,
    ]);
  });

  it('makes none for an organization that has them off, is suspended, or has no SMS provider', async () => {
    const off = await seedTenant(t);
    await withSms(off.user);
    await device(off.org.id, at(1, 12));

    const suspended = await seedTenant(t);
    await withSms(suspended.user);
    await put(suspended.user, { enabled: true }).expect(200);
    await device(suspended.org.id, at(1, 12));
    await t.db.platform.organization.update({ where: { id: suspended.org.id }, data: { status: 'suspended' } });

    const silent = await seedTenant(t);
    await put(silent.user, { enabled: true }).expect(200);
    await device(silent.org.id, at(1, 12));
    expect((await read(silent.user)).can_send).toBe(false);

    await reminders.sweep(at(0, 12));
    for (const org of [off.org, suspended.org, silent.org]) expect(await queued(org.id)).toEqual([]);
  });

  it("keeps each organization's settings and reminders to itself", async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    await withSms(a.user);
    await put(a.user, { enabled: true, days_before: 3, send_hour: 6 }).expect(200);
    await device(a.org.id, at(3, 12));
    await reminders.sweep(at(0, 7));
    expect(await queued(a.org.id)).toHaveLength(1);
    expect(await read(b.user)).toMatchObject({ enabled: false, days_before: 1, send_hour: 9, sent_30_days: 0, last_sent_at: null });
    await put(b.user, { enabled: false, days_before: 0 }).expect(200);
    expect(await read(a.user)).toMatchObject({ enabled: true, days_before: 3, send_hour: 6, sent_30_days: 1 });
    expect(await queued(b.org.id)).toEqual([]);
  });

  it(`goes through more than one batch of ${REMINDER_BATCH} devices`, async () => {
    const { org, user } = await seedTenant(t);
    await withSms(user);
    await put(user, { enabled: true, days_before: 2, send_hour: 0 }).expect(200);
    const first = await device(org.id, at(2, 9));
    const n = 2 * REMINDER_BATCH + 17;
    // Copies of the first device, each with its own serial number, all running out on the same day.
    await t.db.execute(Prisma.sql`
      INSERT INTO items (organization_id, serial_number, serial_normalized, product_name, price, status, is_assigned, customer_id,
                         assigned_at, secret_key_enc, starting_code_enc, credit_until)
      SELECT organization_id, serial_number || '-' || g, serial_normalized || g, product_name, price, status, true, customer_id,
             now(), secret_key_enc, starting_code_enc, credit_until + make_interval(secs => g)
      FROM items, generate_series(1, ${n - 1}::int) g
      WHERE organization_id = ${org.id} AND item_id = ${first.item.id}::int`);
    const result = await reminders.sweep(at(0, 1));
    expect(result.reminded).toBeGreaterThanOrEqual(n);
    const made = await queued(org.id);
    expect(made).toHaveLength(n);
    expect(new Set(made.map((m) => m.item_id)).size).toBe(n);
  });
});
