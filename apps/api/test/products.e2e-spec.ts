import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZProductListReplySchema, ZProductsSummaryReplySchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomer, seedItem, seedTenant } from './support/factories.js';

describe('products', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Org A: 25 devices, 5 of them assigned to Jane; org B: 3 devices. */
  async function fleet() {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    const jane = await seedCustomer(t, a.org.id, { customer_name: 'Jane Muthoni' });
    for (let i = 0; i < 25; i++) {
      await seedItem(t, a.org.id, {
        serial_number: `PR-${String(i).padStart(2, '0')}`,
        product_name: i < 3 ? 'Solar Fridge' : 'Solar Lamp',
        product_oem: i % 5 === 0 ? 'Fenix' : 'Greenlight',
        customer_id: i % 5 === 0 ? jane.id : null,
      });
    }
    for (let i = 0; i < 3; i++) await seedItem(t, b.org.id, { serial_number: `PR-B${i}`, product_oem: 'Fenix' });
    return { a, b, jane };
  }

  it('GET /products/summary counts the organization’s devices only', async () => {
    const { a, b } = await fleet();
    const sa = ZProductsSummaryReplySchema.parse((await t.http.get('/payg/products/summary').set(a.user.auth).expect(200)).body);
    expect(sa).toEqual({ data: { total_products: 25, assigned_products: 5, unassigned_products: 20 } });
    const sb = ZProductsSummaryReplySchema.parse((await t.http.get('/payg/products/summary').set(b.user.auth).expect(200)).body);
    expect(sb.data).toEqual({ total_products: 3, assigned_products: 0, unassigned_products: 3 });
    const empty = await seedTenant(t);
    expect((await t.http.get('/payg/products/summary').set(empty.user.auth).expect(200)).body.data.total_products).toBe(0);
  });

  it('GET /products pages 20 at a time, newest first, with the customer name and assignment date', async () => {
    const { a, jane } = await fleet();
    const first = ZProductListReplySchema.parse((await t.http.get('/payg/products').set(a.user.auth).expect(200)).body);
    expect(first.data.items).toHaveLength(20);
    expect(first.data.pagination).toEqual({ total: 25, total_pages: 2, page: 1, limit: 20 });
    expect(first.data.items[0].serial_number).toBe('PR-24');
    const second = ZProductListReplySchema.parse((await t.http.get('/payg/products?page=2').set(a.user.auth).expect(200)).body);
    expect(second.data.items.map((i) => i.serial_number)).toEqual(['PR-04', 'PR-03', 'PR-02', 'PR-01', 'PR-00']);
    expect(second.data.items[4]).toMatchObject({ customer_name: jane.customer_name, customer_id: jane.id, is_assigned: true });
    expect(second.data.items[4].assigned_at).not.toBeNull();
    expect(second.data.items[3]).toMatchObject({ customer_name: null, assigned_at: null });
    expect(JSON.stringify(first)).not.toMatch(/secret|_enc|starting_code/);
    const past = ZProductListReplySchema.parse((await t.http.get('/payg/products?page=9').set(a.user.auth).expect(200)).body);
    expect(past.data).toEqual({ items: [], pagination: { total: 25, total_pages: 2, page: 9, limit: 20 } });
  });

  it('filters on assignment and searches serial, product name, manufacturer and OEM', async () => {
    const { a } = await fleet();
    const get = async (qs: string) => ZProductListReplySchema.parse((await t.http.get(`/payg/products?${qs}`).set(a.user.auth).expect(200)).body).data;
    expect((await get('status=assigned')).pagination.total).toBe(5);
    expect((await get('status=unassigned&limit=100')).items.every((i) => !i.is_assigned)).toBe(true);
    expect((await get('status=all')).pagination.total).toBe(25);
    expect((await get('search=fridge')).items.map((i) => i.serial_number)).toEqual(['PR-02', 'PR-01', 'PR-00']);
    expect((await get('search=fenix')).pagination.total).toBe(5);
    expect((await get('search=fenix&status=unassigned')).pagination.total).toBe(0);
    expect((await get('search=pr-1')).pagination.total).toBe(10);
    // Terms shorter than a trigram (the search as the user starts typing) still match.
    expect((await get('search=-2')).items.map((i) => i.serial_number)).toEqual(['PR-24', 'PR-23', 'PR-22', 'PR-21', 'PR-20']);
    expect((await get('search=f&status=assigned')).pagination.total).toBe(5);
    expect((await get('search=sunco')).pagination.total).toBe(25);
    expect((await get('search=nothing-like-this')).items).toEqual([]);
  });

  it.each(['page=0', 'page=-1', 'limit=0', 'limit=101', 'limit=-2', 'status=broken', 'page=x'])('refuses %s with a 400 naming it', async (qs) => {
    const { user } = await seedTenant(t);
    const res = await t.http.get(`/payg/products?${qs}`).set(user.auth).expect(400);
    expect(res.body.message).toContain(qs.split('=')[0]);
  });

  it("never shows another organization's devices, by list or search", async () => {
    const { b } = await fleet();
    const list = ZProductListReplySchema.parse((await t.http.get('/payg/products?search=PR-&limit=100').set(b.user.auth).expect(200)).body);
    expect(list.data.items.map((i) => i.serial_number).sort()).toEqual(['PR-B0', 'PR-B1', 'PR-B2']);
    const jane = ZProductListReplySchema.parse((await t.http.get('/payg/products?status=assigned').set(b.user.auth).expect(200)).body);
    expect(jane.data.items).toEqual([]);
  });
});
