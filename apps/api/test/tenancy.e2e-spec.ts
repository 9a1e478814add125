import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TenantScopeError } from '../src/database/tenant-guard.extension.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomer, seedItem, seedOrg } from './support/factories.js';

describe('the data layer refuses organization-owned queries without an organization', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('throws on reads, counts, updates, deletes and creates that do not name the organization', async () => {
    const org = await seedOrg(t);
    const c = await seedCustomer(t, org.id);
    const db = t.db.db;
    await expect(db.customer.findMany({})).rejects.toThrow(TenantScopeError);
    await expect(db.customer.findFirst({ where: { id: c.id } })).rejects.toThrow(TenantScopeError);
    await expect(db.customer.count()).rejects.toThrow(TenantScopeError);
    await expect(db.customer.updateMany({ where: { id: c.id }, data: { status: 'inactive' } })).rejects.toThrow(TenantScopeError);
    await expect(db.customer.deleteMany({ where: { id: c.id } })).rejects.toThrow(TenantScopeError);
    await expect(db.payment.aggregate({ _sum: { amount: true } })).rejects.toThrow(TenantScopeError);
    await expect(
      db.customer.create({ data: { customer_name: 'x', id_number: 'x', phone_contact: 'x' } as never }),
    ).rejects.toThrow(TenantScopeError);
    // Scoped, they work, and the compound key carries the organization.
    expect(await db.customer.count({ where: { organization_id: org.id } })).toBe(1);
    const found = await db.customer.findUnique({ where: { organization_id_id: { organization_id: org.id, id: c.id } } });
    expect(found?.id).toBe(c.id);
  });

  it('makes a row of one organization unable to point at another organization\'s row', async () => {
    const a = await seedOrg(t);
    const b = await seedOrg(t);
    const customerOfA = await seedCustomer(t, a.id);
    // A device of B claiming A's customer violates the (organization_id, customer_id) foreign key.
    await expect(seedItem(t, b.id, { customer_id: customerOfA.id })).rejects.toThrow();
  });
});
