import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZOnboardingReplySchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomer, seedItem, seedTemplate, seedTenant } from './support/factories.js';

describe('POST /onboarding', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const state = async (orgId: string, serial: string, customerId: number) => ({
    item: await t.db.db.item.findUniqueOrThrow({ where: { organization_id_serial_number: { organization_id: orgId, serial_number: serial } } }),
    itemHistory: await t.db.db.itemAssignment.count({ where: { organization_id: orgId, customer_id: customerId } }),
    templates: await t.db.db.templateAssignment.findMany({ where: { organization_id: orgId, customer_id: customerId } }),
  });

  it('assigns the device and the template together', async () => {
    const { user, org } = await seedTenant(t);
    const customer = await seedCustomer(t, org.id);
    await seedItem(t, org.id, { serial_number: 'ON-1' });
    const template = await seedTemplate(t, org.id, { template_name: 'Starter' });
    const res = await t.http
      .post('/payg/onboarding')
      .set(user.auth)
      .send({ customer_id: customer.id, item_serial_number: 'ON-1', template_id: template.id, notes: 'walk-in', organization_id: '' })
      .expect(200);
    const reply = ZOnboardingReplySchema.parse(res.body);
    expect(reply.message).toBe('Customer onboarding completed successfully!');
    expect(reply.item).toMatchObject({ serial_number: 'ON-1', is_assigned: true, status: 'assigned', customer_id: customer.id });
    expect(reply.template_assignment).toMatchObject({ template_name: 'Starter', is_active: true, notes: 'walk-in' });
    expect(JSON.stringify(reply)).not.toMatch(/secret|_enc/);
    const s = await state(org.id, 'ON-1', customer.id);
    expect(s.itemHistory).toBe(1);
    expect(s.templates).toHaveLength(1);
  });

  it('assigns only the device when no template is chosen', async () => {
    const { user, org } = await seedTenant(t);
    const customer = await seedCustomer(t, org.id);
    await seedItem(t, org.id, { serial_number: 'ON-2' });
    const reply = ZOnboardingReplySchema.parse(
      (await t.http.post('/payg/onboarding').set(user.auth).send({ customer_id: customer.id, item_serial_number: 'ON-2', template_id: '' }).expect(200)).body,
    );
    expect(reply.template_assignment).toBeNull();
    expect((await state(org.id, 'ON-2', customer.id)).item.is_assigned).toBe(true);
  });

  it('rolls the device assignment back when the template step fails', async () => {
    const { user, org } = await seedTenant(t);
    const customer = await seedCustomer(t, org.id);
    await seedItem(t, org.id, { serial_number: 'ON-3' });
    const res = await t.http
      .post('/payg/onboarding')
      .set(user.auth)
      .send({ customer_id: customer.id, item_serial_number: 'ON-3', template_id: 999_999 })
      .expect(404);
    expect(res.body.detail).toBe('Payment template not found');
    const s = await state(org.id, 'ON-3', customer.id);
    expect(s.item).toMatchObject({ is_assigned: false, status: 'available', customer_id: null, assigned_at: null });
    expect(s.itemHistory).toBe(0);
    expect(s.templates).toHaveLength(0);
    expect(await t.db.platform.auditLog.count({ where: { organization_id: org.id, action: 'item.assigned' } })).toBe(0);
  });

  it('changes nothing when the device cannot be assigned', async () => {
    const { user, org } = await seedTenant(t);
    const [owner, newcomer] = [await seedCustomer(t, org.id), await seedCustomer(t, org.id)];
    await seedItem(t, org.id, { serial_number: 'ON-4', customer_id: owner.id });
    const template = await seedTemplate(t, org.id);
    const res = await t.http
      .post('/payg/onboarding')
      .set(user.auth)
      .send({ customer_id: newcomer.id, item_serial_number: 'ON-4', template_id: template.id })
      .expect(409);
    expect(res.body.detail).toBe('Device ON-4 is already assigned to another customer');
    expect((await state(org.id, 'ON-4', newcomer.id)).templates).toHaveLength(0);
    await t.http.post('/payg/onboarding').set(user.auth).send({ customer_id: newcomer.id, item_serial_number: 'NOPE', template_id: template.id }).expect(404);
    await t.http.post('/payg/onboarding').set(user.auth).send({ customer_id: 999_999, item_serial_number: 'ON-4' }).expect(404);
    expect((await state(org.id, 'ON-4', newcomer.id)).templates).toHaveLength(0);
  });

  it('validates the input', async () => {
    const { user } = await seedTenant(t);
    const res = await t.http.post('/payg/onboarding').set(user.auth).send({ template_id: 'abc' }).expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['customer_id', 'item_serial_number', 'template_id']);
  });

  it("cannot onboard with another organization's customer, device or template", async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    const customerA = await seedCustomer(t, a.org.id);
    const customerB = await seedCustomer(t, b.org.id);
    await seedItem(t, a.org.id, { serial_number: 'ON-A' });
    await seedItem(t, b.org.id, { serial_number: 'ON-B' });
    const templateA = await seedTemplate(t, a.org.id);
    const onboard = (body: object) => t.http.post('/payg/onboarding').set(b.user.auth).send(body);
    await onboard({ customer_id: customerA.id, item_serial_number: 'ON-B' }).expect(404);
    await onboard({ customer_id: customerB.id, item_serial_number: 'ON-A' }).expect(404);
    await onboard({ customer_id: customerB.id, item_serial_number: 'ON-B', template_id: templateA.id }).expect(404);
    expect((await state(a.org.id, 'ON-A', customerA.id)).item.is_assigned).toBe(false);
    expect((await state(b.org.id, 'ON-B', customerB.id)).item.is_assigned).toBe(false);
  });
});
