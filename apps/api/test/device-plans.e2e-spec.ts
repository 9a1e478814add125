import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ZCustomerPaymentDetailsSchema,
  ZCustomerStatusReplySchema,
  ZDeviceActivitySchema,
  ZOnboardingReplySchema,
  ZTemplateAssignReplySchema,
  ZTemplateAssignmentEndReplySchema,
  ZTemplateAssignmentsReplySchema,
  ZTemplatePerformanceReplySchema,
  ZTemplateSummarySchema,
} from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { README_PLAN, SECOND_PLAN, payCash } from './support/plans.js';
import { seedCustomer, seedItem, seedTemplate, seedTenant, type SeededUser } from './support/factories.js';

// A customer can pay for two devices on two plans (README "Payment rules"):
// a device's own plan wins over its customer's, which covers their other
// devices.

/** The customer's plan is the README's; the phone's own is the second one. */
const [LAMP_PLAN, PHONE_PLAN] = [README_PLAN, SECOND_PLAN];

describe('a plan of the device’s own', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const pay = (user: SeededUser, serial: string, amount: string) => payCash(t, user, serial, amount);
  const assignPlan = (user: SeededUser, body: Record<string, unknown>) => t.http.post('/payg/payments/templates/assign').set(user.auth).send(body);
  const activity = async (user: SeededUser, serial: string) =>
    ZDeviceActivitySchema.parse((await t.http.get(`/payg/devices/${serial}/activity`).set(user.auth).expect(200)).body).data.device_info;
  const onboard = async (user: SeededUser, body: Record<string, unknown>) =>
    ZOnboardingReplySchema.parse((await t.http.post('/payg/onboarding').set(user.auth).send(body).expect(200)).body);
  const activePlans = (orgId: string) =>
    t.db.db.templateAssignment.findMany({
      where: { organization_id: orgId, is_active: true },
      select: { customer_id: true, template_id: true, item_id: true },
      orderBy: { id: 'asc' },
    });

  /** One customer on LAMP_PLAN with a lamp and a phone, both onboarded on that plan; PHONE_PLAN exists. */
  async function customerWithTwoDevices() {
    const { user, org } = await seedTenant(t);
    const customer = await seedCustomer(t, org.id, { customer_name: 'Wanjiru W' });
    const [lampPlan, phonePlan] = [
      await seedTemplate(t, org.id, { ...LAMP_PLAN, template_name: 'Lamp plan' }),
      await seedTemplate(t, org.id, { ...PHONE_PLAN, template_name: 'Phone plan' }),
    ];
    const lamp = await seedItem(t, org.id, { price: '20000.00' });
    const phone = await seedItem(t, org.id, { price: '15000.00', product_name: 'Smartphone' });
    await onboard(user, { customer_id: customer.id, item_serial_number: lamp.serial_number, template_id: lampPlan.id });
    await onboard(user, { customer_id: customer.id, item_serial_number: phone.serial_number });
    return { user, org, customer, lampPlan, phonePlan, lamp, phone };
  }

  it('prices the device on its own plan and the customer’s other devices on theirs', async () => {
    const { user, org, customer, lampPlan, phonePlan, lamp, phone } = await customerWithTwoDevices();
    const res = await assignPlan(user, { customer_id: customer.id, template_id: phonePlan.id, serial_number: phone.serial_number }).expect(200);
    const reply = ZTemplateAssignReplySchema.parse(res.body);
    expect(reply).toMatchObject({
      message: `Payment template Phone plan assigned to Wanjiru W for device ${phone.serial_number}`,
      changed: true,
      assignment: { customer_id: customer.id, template_id: phonePlan.id, item_id: phone.id, serial_number: phone.serial_number, is_active: true },
    });
    // The customer's plan is untouched.
    expect(await activePlans(org.id)).toEqual([
      { customer_id: customer.id, template_id: lampPlan.id, item_id: null },
      { customer_id: customer.id, template_id: phonePlan.id, item_id: phone.id },
    ]);

    // 2,400 on each: the lamp pays 1,500 upfront and 18 days at 50 (+3 grace);
    // the phone 2,000 upfront and 10 days at 40 (+2 grace).
    expect(await pay(user, lamp.serial_number, '2400.00')).toMatchObject({ reason: 'activated', days: 21, remaining_balance: '17600.00' });
    expect(await pay(user, phone.serial_number, '2400.00')).toMatchObject({ reason: 'activated', days: 12, remaining_balance: '12600.00' });

    expect((await activity(user, phone.serial_number)).payment_plan).toEqual({
      template_id: phonePlan.id,
      template_name: 'Phone plan',
      daily_price: '40.00',
      currency: 'KES',
      own: true,
    });
    expect((await activity(user, lamp.serial_number)).payment_plan).toMatchObject({ template_id: lampPlan.id, own: false });

    // Each device's payoff is its own plan's: 20,000 + 15,000, less 2,400 on each.
    const status = ZCustomerStatusReplySchema.parse((await t.http.get(`/payg/customers/${customer.id}/status`).set(user.auth).expect(200)).body);
    expect(status).toMatchObject({ balance: '30200.00', template: { template_id: lampPlan.id } });
    const byPlan = (devices: { serial_number: string; payment_plan: { template_id: number; own: boolean } | null }[]) =>
      Object.fromEntries(devices.map((d) => [d.serial_number, d.payment_plan && [d.payment_plan.template_id, d.payment_plan.own]]));
    expect(byPlan(status.devices)).toEqual({ [lamp.serial_number]: [lampPlan.id, false], [phone.serial_number]: [phonePlan.id, true] });
    // Payment details list each device with its plan and what is left on it, the first assigned first.
    const details = ZCustomerPaymentDetailsSchema.parse(
      (await t.http.get(`/payg/customers/${customer.id}/payment-details`).set(user.auth).expect(200)).body,
    ).data;
    expect(details.devices.map((d) => [d.serial_number, d.remaining, d.payment_plan?.template_name, d.payment_plan?.own])).toEqual([
      [lamp.serial_number, '17600.00', 'Lamp plan', false],
      [phone.serial_number, '12600.00', 'Phone plan', true],
    ]);
    expect(details.devices[1]).toMatchObject({ total_paid: '2400.00', payoff_price: '15000.00', paid_off: false });
    expect(details.devices[1].days_left).toBeGreaterThan(11);
    expect(details.payment_template).toMatchObject({ template_id: lampPlan.id });
    const deviceless = await seedCustomer(t, org.id);
    const none = ZCustomerPaymentDetailsSchema.parse(
      (await t.http.get(`/payg/customers/${deviceless.id}/payment-details`).set(user.auth).expect(200)).body,
    ).data;
    expect([none.devices, none.payment_template]).toEqual([[], null]);

    // Performance counts the phone and its payment for the phone's plan, not the customer's.
    const perf = async (id: number) =>
      ZTemplatePerformanceReplySchema.parse((await t.http.get(`/payg/payments/templates/${id}/performance`).set(user.auth).expect(200)).body).data;
    expect(await perf(lampPlan.id)).toMatchObject({ customers_assigned: 1, devices_assigned: 1, payments_count: 1, revenue_collected: '2400.00' });
    expect(await perf(phonePlan.id)).toMatchObject({ customers_assigned: 1, devices_assigned: 1, payments_count: 1, revenue_collected: '2400.00' });
    // One customer on plans, however many of their devices have one.
    const summary = ZTemplateSummarySchema.parse((await t.http.get('/payg/payments/templates/summary').set(user.auth).expect(200)).body);
    expect(summary.customers_on_templates).toBe(1);
  });

  it('keeps the device on its own plan when the customer moves to another, and ends it for a third', async () => {
    const { user, org, customer, lampPlan, phonePlan, lamp, phone } = await customerWithTwoDevices();
    await assignPlan(user, { customer_id: customer.id, template_id: phonePlan.id, serial_number: phone.serial_number }).expect(200);
    // The same plan again changes nothing.
    const again = ZTemplateAssignReplySchema.parse(
      (await assignPlan(user, { customer_id: customer.id, template_id: phonePlan.id, serial_number: phone.serial_number }).expect(200)).body,
    );
    expect(again).toMatchObject({ changed: false, message: `Wanjiru W's device ${phone.serial_number} is already on Phone plan` });

    const third = await seedTemplate(t, org.id, { template_name: 'Holiday plan', daily_price: '30.00' });
    await assignPlan(user, { customer_id: customer.id, template_id: third.id }).expect(200);
    expect((await activity(user, lamp.serial_number)).payment_plan).toMatchObject({ template_id: third.id, own: false });
    expect((await activity(user, phone.serial_number)).payment_plan).toMatchObject({ template_id: phonePlan.id, own: true });

    await assignPlan(user, { customer_id: customer.id, template_id: third.id, serial_number: phone.serial_number }).expect(200);
    // The phone's earlier plan of its own is history, listed with its device.
    const history = ZTemplateAssignmentsReplySchema.parse(
      (await t.http.get('/payg/payments/templates/assignments').query({ customer_id: customer.id }).set(user.auth).expect(200)).body,
    );
    expect(history.data.map((a) => [a.template_id, a.serial_number, a.is_active])).toEqual([
      [third.id, phone.serial_number, true],
      [third.id, null, true],
      [phonePlan.id, phone.serial_number, false],
      [lampPlan.id, null, false],
    ]);
  });

  it('refuses a device that is not the customer’s, naming serial_number, and changes nothing', async () => {
    const { user, org, customer, phonePlan } = await customerWithTwoDevices();
    const other = await seedCustomer(t, org.id, { customer_name: 'Otieno O' });
    const othersDevice = await seedItem(t, org.id, { customer_id: other.id });
    const spare = await seedItem(t, org.id);
    const before = await activePlans(org.id);

    const notTheirs = await assignPlan(user, { customer_id: customer.id, template_id: phonePlan.id, serial_number: othersDevice.serial_number }).expect(400);
    expect(notTheirs.body).toMatchObject({ errors: [{ field: 'serial_number', message: `device ${othersDevice.serial_number} is not assigned to Wanjiru W` }] });
    await assignPlan(user, { customer_id: customer.id, template_id: phonePlan.id, serial_number: spare.serial_number }).expect(400);
    const unknown = await assignPlan(user, { customer_id: customer.id, template_id: phonePlan.id, serial_number: 'NO-SUCH-DEVICE' }).expect(404);
    expect(unknown.body).toMatchObject({ detail: 'Device not found' });
    const tooLong = await assignPlan(user, { customer_id: customer.id, template_id: phonePlan.id, serial_number: 'X'.repeat(101) }).expect(400);
    expect(tooLong.body.errors).toEqual([expect.objectContaining({ field: 'serial_number' })]);
    const notText = await assignPlan(user, { customer_id: customer.id, template_id: phonePlan.id, serial_number: { serial: 'X' } }).expect(400);
    expect(notText.body.errors).toEqual([expect.objectContaining({ field: 'serial_number' })]);

    expect(await activePlans(org.id)).toEqual(before);
  });

  it('does not reach another organization’s device', async () => {
    const { user, org, customer, phonePlan } = await customerWithTwoDevices();
    const theirs = await customerWithTwoDevices();
    const before = await activePlans(theirs.org.id);
    const res = await assignPlan(user, { customer_id: customer.id, template_id: phonePlan.id, serial_number: theirs.phone.serial_number }).expect(404);
    expect(res.body).toMatchObject({ detail: 'Device not found' });
    // Nor another organization's customer or template with one's own device.
    await assignPlan(theirs.user, { customer_id: customer.id, template_id: theirs.phonePlan.id, serial_number: theirs.phone.serial_number }).expect(404);
    expect(await activePlans(theirs.org.id)).toEqual(before);
    expect(await activePlans(org.id)).toHaveLength(1);
  });

  it('ends the device’s own plan when it goes to another customer, and keeps it for its last holder again', async () => {
    const { user, org, customer, lampPlan, phonePlan, phone } = await customerWithTwoDevices();
    await assignPlan(user, { customer_id: customer.id, template_id: phonePlan.id, serial_number: phone.serial_number }).expect(200);
    const unassign = () => t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: phone.serial_number }).expect(200);

    // Unassigned by mistake and given back: the account, and its plan, are kept.
    await unassign();
    await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: customer.id, item_serial_number: phone.serial_number }).expect(200);
    expect((await activity(user, phone.serial_number)).payment_plan).toMatchObject({ template_id: phonePlan.id, own: true });

    // To another customer: their plan, not the device's last one.
    await unassign();
    const next = await seedCustomer(t, org.id, { customer_name: 'Njeri N' });
    await onboard(user, { customer_id: next.id, item_serial_number: phone.serial_number, template_id: lampPlan.id });
    expect((await activity(user, phone.serial_number)).payment_plan).toMatchObject({ template_id: lampPlan.id, own: false });
    expect(await activePlans(org.id)).toEqual([
      { customer_id: customer.id, template_id: lampPlan.id, item_id: null },
      { customer_id: next.id, template_id: lampPlan.id, item_id: null },
    ]);
  });

  it('ends a device’s own plan, so that its customer’s covers it again; not a customer’s plan, nor twice', async () => {
    const { user, org, customer, lampPlan, phonePlan, phone } = await customerWithTwoDevices();
    const own = ZTemplateAssignReplySchema.parse(
      (await assignPlan(user, { customer_id: customer.id, template_id: phonePlan.id, serial_number: phone.serial_number }).expect(200)).body,
    ).assignment;
    const end = (id: number) => t.http.post(`/payg/payments/templates/assignments/${id}/end`).set(user.auth);

    const ended = ZTemplateAssignmentEndReplySchema.parse((await end(own.assignment_id).expect(200)).body);
    expect(ended).toMatchObject({
      message: `Device ${phone.serial_number} is back on Wanjiru W's plan, Lamp plan`,
      assignment: { assignment_id: own.assignment_id, is_active: false, serial_number: phone.serial_number },
    });
    expect(ended.assignment.ended_at).not.toBeNull();
    expect((await activity(user, phone.serial_number)).payment_plan).toMatchObject({ template_id: lampPlan.id, own: false });
    expect(await t.db.db.auditLog.count({ where: { organization_id: org.id, action: 'template.ended' } })).toBe(1);

    // Twice, a customer's plan, nothing at all: refused, nothing changes.
    expect((await end(own.assignment_id).expect(409)).body).toMatchObject({ detail: 'This plan has ended already' });
    const customers = await t.db.db.templateAssignment.findFirstOrThrow({ where: { organization_id: org.id, customer_id: customer.id, item_id: null, is_active: true } });
    expect((await end(customers.id).expect(409)).body.detail).toBe("A customer's plan is not ended: put the customer on another template instead");
    await end(999_999).expect(404);
    await t.http.post('/payg/payments/templates/assignments/abc/end').set(user.auth).expect(400);
    expect(await activePlans(org.id)).toEqual([{ customer_id: customer.id, template_id: lampPlan.id, item_id: null }]);

    // Another organization cannot end this one's.
    const again = ZTemplateAssignReplySchema.parse(
      (await assignPlan(user, { customer_id: customer.id, template_id: phonePlan.id, serial_number: phone.serial_number }).expect(200)).body,
    ).assignment;
    const other = await seedTenant(t);
    await t.http.post(`/payg/payments/templates/assignments/${again.assignment_id}/end`).set(other.user.auth).expect(404);
    expect((await activity(user, phone.serial_number)).payment_plan).toMatchObject({ template_id: phonePlan.id, own: true });
  });

  it('onboards a device on another plan than the customer’s as the device’s own', async () => {
    const { user, org, customer, lampPlan, phonePlan, lamp } = await customerWithTwoDevices();
    const tv = await seedItem(t, org.id, { product_name: 'Solar TV' });
    const onboarded = await onboard(user, { customer_id: customer.id, item_serial_number: tv.serial_number, template_id: phonePlan.id });
    expect(onboarded.template_assignment).toMatchObject({ template_id: phonePlan.id, item_id: tv.id, serial_number: tv.serial_number });
    expect((await activity(user, lamp.serial_number)).payment_plan).toMatchObject({ template_id: lampPlan.id, own: false });
    expect((await activity(user, tv.serial_number)).payment_plan).toMatchObject({ template_id: phonePlan.id, own: true });

    // On the customer's own plan: nothing of its own.
    const radio = await seedItem(t, org.id, { product_name: 'Radio' });
    const same = await onboard(user, { customer_id: customer.id, item_serial_number: radio.serial_number, template_id: lampPlan.id });
    expect(same.template_assignment).toMatchObject({ template_id: lampPlan.id, item_id: null });
    expect((await activity(user, radio.serial_number)).payment_plan).toMatchObject({ template_id: lampPlan.id, own: false });

    // A customer without a plan gets the template as theirs, for all their devices (as before).
    const fresh = await seedCustomer(t, org.id);
    const first = await seedItem(t, org.id);
    const plain = await onboard(user, { customer_id: fresh.id, item_serial_number: first.serial_number, template_id: phonePlan.id });
    expect(plain.template_assignment).toMatchObject({ template_id: phonePlan.id, item_id: null, serial_number: null });
  });
});
