import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZCustomerPaymentDetailsSchema, ZDeviceActivitySchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import {
  seedCustomer,
  seedCustomerWithDevice,
  seedItem,
  seedMessage,
  seedPayment,
  seedRoles,
  seedTenant,
  seedTokenLog,
  type SeededUser,
} from './support/factories.js';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

describe('device activity and customer payment details', () => {
  let t: TestApp;
  let a: SeededUser;
  let b: SeededUser;
  let device: Awaited<ReturnType<typeof seedCustomerWithDevice>>;

  beforeAll(async () => {
    t = await createTestApp();
    ({ user: a } = await seedTenant(t));
    ({ user: b } = await seedTenant(t));
    const org = a.organization_id;
    device = await seedCustomerWithDevice(t, org, {
      template: { daily_price: '50.00', activation_price: '200.00', grace_period_days: 3, free_code_price: '1000.00', currency: 'KES' },
      item: { serial_number: 'SN-ACT-1', product_name: 'Solar Home 80W', product_oem: 'SunCo', price: '1500.00' },
    });
    const { customer, item } = device;
    for (let i = 0; i < 25; i++) {
      const p = await seedPayment(t, org, { customer_id: customer.id, item_id: item.id, amount: '10.00', paid_at: daysAgo(30 - i) });
      await seedTokenLog(t, org, item, {
        customer_id: customer.id,
        customer_name: customer.customer_name,
        payment_id: p.id,
        days: 0.2,
        amount_paid: '10.00',
        created_at: daysAgo(30 - i),
        generated_by: i === 24 ? 'jane' : null,
      });
    }
    await seedPayment(t, org, { customer_id: customer.id, item_id: item.id, amount: '99.00', status: 'failed', paid_at: daysAgo(0.5) });
    await seedMessage(t, org, { item_id: item.id, amount: '10.00', received_at: daysAgo(1) });
    await seedMessage(t, org, { item_id: item.id, amount: null, forwarded_message: null, status: 'unparsed', received_at: daysAgo(0.2) });
    // Another device's data must not show up.
    const other = await seedItem(t, org, { serial_number: 'SN-ACT-2' });
    await seedTokenLog(t, org, other);
    await seedMessage(t, org, { item_id: other.id });
  });
  afterAll(() => t.close());

  it('describes a device with one page of each history, newest first', async () => {
    const res = await t.http.get('/payg/devices/SN-ACT-1/activity').set(a.auth).expect(200);
    const { data } = ZDeviceActivitySchema.parse(res.body);
    expect(data.device_info).toMatchObject({
      serial_number: 'SN-ACT-1',
      product_name: 'Solar Home 80W',
      product_oem: 'SunCo',
      status: 'assigned',
      customer_name: device.customer.customer_name,
      customer_id: device.customer.id,
      token_count: 25,
      is_assigned: true,
      price: '1500.00',
      total_paid: '250.00',
    });
    expect(data.token_history.total).toBe(25);
    expect(data.token_history.items).toHaveLength(20);
    expect(data.token_history.items[0]).toMatchObject({ token_type: 'add_time', days: 0.2, amount_paid: '10.00', status: 'success', generated_by: 'jane', customer_name: device.customer.customer_name });
    expect(data.token_history.items[1].generated_by).toBe('system');
    expect(data.token_history.items[0].token).toMatch(/^\d{9}$/);
    expect(data.payment_history.total).toBe(26);
    expect(data.payment_history.items[0]).toMatchObject({ amount: '99.00', status: 'failed', device_serial: 'SN-ACT-1', customer_name: device.customer.customer_name, payment_method: 'mobile_money' });
    expect(data.message_history.total).toBe(2);
    expect(data.message_history.items[0]).toMatchObject({ amount: null, forwarded_message: null, status: 'unparsed' });
    expect(data.message_history.items[1]).toMatchObject({ amount: '10.00', recipient_number: '254712345678' });
    const body = JSON.stringify(res.body);
    expect(body).not.toContain('secret_key');
    expect(body).not.toContain('starting_code');
  });

  it('pages through the histories', async () => {
    const res = await t.http.get('/payg/devices/SN-ACT-1/activity?page=2&limit=20').set(a.auth).expect(200);
    const { data } = ZDeviceActivitySchema.parse(res.body);
    expect(data.token_history.items).toHaveLength(5);
    expect(data.payment_history.items).toHaveLength(6);
    expect(data.message_history.items).toHaveLength(0);
    expect(data.page).toBe(2);
    await t.http.get('/payg/devices/SN-ACT-1/activity?limit=0').set(a.auth).expect(400);
  });

  it('answers 404 for an unknown device and for another organization’s device', async () => {
    const unknown = await t.http.get('/payg/devices/NOPE/activity').set(a.auth).expect(404);
    expect(unknown.body.message).toBe('Device not found');
    const cross = await t.http.get('/payg/devices/SN-ACT-1/activity').set(b.auth).expect(404);
    expect(JSON.stringify(cross.body)).not.toContain(device.customer.customer_name);
  });

  it("sums a customer's payments against the template's free code price", async () => {
    const res = await t.http.get(`/payg/customers/${device.customer.id}/payment-details`).set(a.auth).expect(200);
    const { data } = ZCustomerPaymentDetailsSchema.parse(res.body);
    expect(data.customer_info).toMatchObject({
      customer_id: device.customer.id,
      customer_name: device.customer.customer_name,
      device_serial: 'SN-ACT-1',
      product_name: 'Solar Home 80W',
      product_oem: 'SunCo',
    });
    expect(data.payment_template).toEqual({
      template_id: device.template.id,
      template_name: device.template.template_name,
      daily_price: '50.00',
      activation_price: '200.00',
      grace_period_days: 3,
      currency: 'KES',
      deposit_made: '0.00',
    });
    // 25 × 10 paid; the failed 99 does not count.
    expect(data.payment_summary).toEqual({
      total_paid: '250.00',
      free_code_price: '1000.00',
      remaining_balance: '750.00',
      payment_progress: 25,
      is_fully_paid: false,
      payment_count: 26,
      paid_before: '0.00',
    });
    expect(data.payment_history).toHaveLength(26);
    expect(data.payment_history[0].amount).toBe('99.00');
  });

  it('falls back to the device price, caps progress at 100 and never goes negative', async () => {
    const org = a.organization_id;
    const customer = await seedCustomer(t, org);
    const item = await seedItem(t, org, { customer_id: customer.id, price: '300.00' });
    await seedPayment(t, org, { customer_id: customer.id, item_id: item.id, amount: '250.00' });
    await seedPayment(t, org, { customer_id: customer.id, item_id: item.id, amount: '100.00' });
    const { data } = ZCustomerPaymentDetailsSchema.parse(
      (await t.http.get(`/payg/customers/${customer.id}/payment-details`).set(a.auth).expect(200)).body,
    );
    expect(data.payment_template).toBeNull();
    expect(data.payment_summary).toMatchObject({ total_paid: '350.00', free_code_price: '300.00', remaining_balance: '0.00', payment_progress: 100, is_fully_paid: true });

    const bare = await seedCustomer(t, org);
    const none = ZCustomerPaymentDetailsSchema.parse((await t.http.get(`/payg/customers/${bare.id}/payment-details`).set(a.auth).expect(200)).body);
    expect(none.data.customer_info.device_serial).toBeNull();
    expect(none.data.payment_summary).toEqual({ total_paid: '0.00', free_code_price: '0.00', remaining_balance: '0.00', payment_progress: 0, is_fully_paid: false, payment_count: 0, paid_before: '0.00' });
  });

  it("answers 404 for an unknown customer and another organization's customer, 400 for a bad id", async () => {
    await t.http.get('/payg/customers/999999/payment-details').set(a.auth).expect(404);
    const cross = await t.http.get(`/payg/customers/${device.customer.id}/payment-details`).set(b.auth).expect(404);
    expect(cross.body.message).toBe('Customer not found');
    await t.http.get('/payg/customers/abc/payment-details').set(a.auth).expect(400);
  });

  it('is open to every role of the organization', async () => {
    const r = await seedRoles(t);
    const d = await seedCustomerWithDevice(t, r.org.id, { item: { serial_number: 'SN-ROLE-1' } });
    for (const user of [r.owner, r.admin, r.staff]) {
      await t.http.get('/payg/devices/SN-ROLE-1/activity').set(user.auth).expect(200);
      await t.http.get(`/payg/customers/${d.customer.id}/payment-details`).set(user.auth).expect(200);
    }
    // A super admin works in their own organization here, like everyone else.
    await t.http.get('/payg/devices/SN-ROLE-1/activity').set(r.superAdmin.auth).expect(404);
    await t.http.get('/payg/devices/SN-ROLE-1/activity').expect(401);
  });
});
