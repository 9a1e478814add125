import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeToken, initialTokenState } from '@kidogo/openpaygo';
import { ZReportSchema, ZTicketAssigneesReplySchema, ZTicketHistoryReplySchema, ZTicketReplySchema, ZTicketsReplySchema, type TicketsQuery } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomerWithDevice, seedItem, seedTenant, seedUser, type SeededUser } from './support/factories.js';

// Service tickets (README "Service tickets"): after-sales work on a device,
// from the customer's report to what was done.

describe('service tickets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const open = (user: SeededUser, body: object) => t.http.post('/payg/tickets').set(user.auth).send(body);
  const patch = (user: SeededUser, id: number, body: object) => t.http.patch(`/payg/tickets/${id}`).set(user.auth).send(body);
  const list = async (user: SeededUser, query: Partial<TicketsQuery> = {}) =>
    ZTicketsReplySchema.parse((await t.http.get('/payg/tickets').query(query).set(user.auth).expect(200)).body).data;
  const audit = (orgId: string) =>
    t.db.platform.auditLog.findMany({ where: { organization_id: orgId, entity_type: 'ticket' }, orderBy: { id: 'asc' } });

  it('opens a ticket for a device with its customer, moves it on to resolved, and logs each step', async () => {
    const { org, user: owner } = await seedTenant(t);
    const tech = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const { customer, item } = await seedCustomerWithDevice(t, org.id);
    await t.http.post('/payg/webhooks').set(owner.auth).send({ url: 'https://crm.example.com/hook', events: ['ticket.opened', 'ticket.resolved'] }).expect(201);

    // The serial as a customer reads it over the phone: case, spaces and dashes do not matter.
    const typed = ` ${item.serial_number.toLowerCase().replace(/(.{3})/, '$1-')} `;
    const made = ZTicketReplySchema.parse(
      (await open(owner, { serial_number: typed, category: 'device_fault', description: '  The lamp flickers at night  ' }).expect(201)).body,
    ).data;
    expect(made).toMatchObject({
      item_id: item.id,
      serial_number: item.serial_number,
      customer_id: customer.id,
      customer_name: customer.customer_name,
      category: 'device_fault',
      status: 'open',
      description: 'The lamp flickers at night',
      resolution: null,
      assigned_to: null,
      opened_by: owner.username,
      resolved_at: null,
      days_open: 0,
    });

    // Assigned to the technician, who sees it under their own.
    const assigned = ZTicketReplySchema.parse((await patch(owner, made.ticket_id, { assigned_to: tech.user_id }).expect(200)).body).data;
    expect(assigned.assigned_to).toEqual({ user_id: tech.user_id, username: tech.username });
    expect((await list(tech, { mine: true })).items.map((x) => x.ticket_id)).toEqual([made.ticket_id]);
    expect((await list(owner, { mine: true })).items).toEqual([]);

    // The technician works on it; resolving takes what was done.
    await patch(tech, made.ticket_id, { status: 'in_progress' }).expect(200);
    const refused = await patch(tech, made.ticket_id, { status: 'resolved' }).expect(400);
    expect(refused.body.message).toBe('resolution: is required to resolve a ticket');
    expect((await t.http.get(`/payg/tickets/${made.ticket_id}`).set(tech.auth).expect(200)).body.data.status).toBe('in_progress');
    const resolved = ZTicketReplySchema.parse(
      (await patch(tech, made.ticket_id, { status: 'resolved', resolution: 'Replaced the LED driver' }).expect(200)).body,
    ).data;
    expect(resolved).toMatchObject({ status: 'resolved', resolution: 'Replaced the LED driver', resolved_at: expect.any(String) });

    // Sending the same again changes nothing and logs nothing.
    const before = (await audit(org.id)).length;
    expect((await patch(tech, made.ticket_id, { status: 'resolved' }).expect(200)).body.data).toEqual(resolved);
    expect((await audit(org.id)).length).toBe(before);

    // The fault comes back: opened again, the resolution kept as what was tried.
    const reopened = ZTicketReplySchema.parse((await patch(owner, made.ticket_id, { status: 'open' }).expect(200)).body).data;
    expect(reopened).toMatchObject({ status: 'open', resolved_at: null, resolution: 'Replaced the LED driver' });

    // A CRM hears of the opening and of the resolution (once each), from the transactions that made them.
    const { rows: events } = await t.db.pool.query(
      `SELECT event_type, payload FROM webhook_deliveries WHERE organization_id = $1 ORDER BY delivery_id`,
      [org.id],
    );
    expect(events.map((e) => [e.event_type, e.payload.data.ticket_id, e.payload.data.status])).toEqual([
      ['ticket.opened', made.ticket_id, 'open'],
      ['ticket.resolved', made.ticket_id, 'resolved'],
    ]);
    expect(events[1].payload.data).toMatchObject({ resolution: 'Replaced the LED driver', customer_id: customer.id, serial_number: item.serial_number });

    const entries = await audit(org.id);
    expect(entries.map((e) => [e.action, e.actor_username, e.description])).toEqual([
      ['ticket.opened', owner.username, `Ticket #${made.ticket_id} opened for device ${item.serial_number}: Device fault`],
      ['ticket.updated', owner.username, `Ticket #${made.ticket_id} (device ${item.serial_number}): assigned to ${tech.username}`],
      ['ticket.status_changed', tech.username, `Ticket #${made.ticket_id} (device ${item.serial_number}): Open → In progress`],
      [
        'ticket.status_changed',
        tech.username,
        `Ticket #${made.ticket_id} (device ${item.serial_number}): In progress → Resolved; resolution: Replaced the LED driver`,
      ],
      ['ticket.status_changed', owner.username, `Ticket #${made.ticket_id} (device ${item.serial_number}): Resolved → Open`],
    ]);
    // The ticket's own history, oldest first, as the Update dialog shows it.
    const history = ZTicketHistoryReplySchema.parse((await t.http.get(`/payg/tickets/${made.ticket_id}/history`).set(tech.auth).expect(200)).body);
    expect(history.data.map((e) => [e.action, e.actor_username, e.description])).toEqual(entries.map((e) => [e.action, e.actor_username, e.description]));
    await t.http.get('/payg/tickets/999999/history').set(tech.auth).expect(404);
    // In the Activity Log under Devices.
    const log = await t.http.get('/payg/audit-log').query({ category: 'devices' }).set(owner.auth).expect(200);
    expect(log.body.data.filter((e: { action: string }) => e.action.startsWith('ticket.')).length).toBe(5);

    // A long history keeps its latest changes: the newest 200, oldest first.
    await t.db.pool.query(
      `INSERT INTO audit_logs (organization_id, actor_username, action, entity_type, entity_id, description)
       SELECT $1, 'bench', 'ticket.updated', 'ticket', $2, 'Note ' || g FROM generate_series(1, 210) g`,
      [org.id, String(made.ticket_id)],
    );
    const long = ZTicketHistoryReplySchema.parse((await t.http.get(`/payg/tickets/${made.ticket_id}/history`).set(tech.auth).expect(200)).body).data;
    expect(long).toHaveLength(200);
    expect([long[0]!.description, long.at(-1)!.description]).toEqual(['Note 11', 'Note 210']);
  });

  it('lists by status with the counts of each, by device, newest first, a page at a time', async () => {
    const { org, user } = await seedTenant(t);
    const a = await seedCustomerWithDevice(t, org.id);
    const spare = await seedItem(t, org.id);
    const ids: number[] = [];
    for (const [serial, category] of [
      [a.item.serial_number, 'installation'],
      [spare.serial_number, 'other'],
      [a.item.serial_number, 'token_problem'],
      [a.item.serial_number, 'billing'],
    ] as const) {
      ids.push((await open(user, { serial_number: serial, category, description: `About ${category}` }).expect(201)).body.data.ticket_id);
    }
    await patch(user, ids[1]!, { status: 'in_progress' }).expect(200);
    await patch(user, ids[2]!, { status: 'resolved', resolution: 'Synced the counter' }).expect(200);

    const active = await list(user);
    expect(active.items.map((x) => x.ticket_id)).toEqual([ids[3], ids[1], ids[0]]);
    expect(active.counts).toEqual({ open: 2, in_progress: 1, resolved: 1 });
    expect(active.pagination).toEqual({ total: 3, total_pages: 1, page: 1, limit: 25 });
    expect((await list(user, { status: 'resolved' })).items.map((x) => x.ticket_id)).toEqual([ids[2]]);
    expect((await list(user, { status: 'all', limit: 2, page: 2 })).items.map((x) => x.ticket_id)).toEqual([ids[1], ids[0]]);
    const device = await list(user, { status: 'all', serial_number: a.item.serial_number });
    expect(device.items.map((x) => x.ticket_id)).toEqual([ids[3], ids[2], ids[0]]);
    expect(device.pagination.total).toBe(3);
    // One customer's, on any of their devices.
    const theirs = await list(user, { status: 'all', customer_id: a.customer.id });
    expect(theirs.items.map((x) => x.ticket_id)).toEqual([ids[3], ids[2], ids[0]]);
    expect(theirs.pagination.total).toBe(3);
    expect((await t.http.get('/payg/tickets').query({ customer_id: 'x' }).set(user.auth).expect(400)).body.message).toMatch(/^customer_id: /);
    // A device with no customer gets a ticket too (a fault found in the store).
    expect(active.items.find((x) => x.ticket_id === ids[1])).toMatchObject({ customer_id: null, customer_name: null, serial_number: spare.serial_number });
    expect((await list(user, { serial_number: 'NO-SUCH-DEVICE' })).items).toEqual([]);

    // The counts are kept as tickets come and go: a device deleted takes its tickets with it.
    await t.http.delete(`/payg/items/${encodeURIComponent(spare.serial_number)}`).set(user.auth).expect(200);
    const after = await list(user, { status: 'all' });
    expect(after.counts).toEqual({ open: 2, in_progress: 0, resolved: 1 });
    expect(after.pagination.total).toBe(3);
    const { rows: real } = await t.db.pool.query(
      `SELECT status::text AS status, count(*)::int AS n FROM service_tickets WHERE organization_id = $1 GROUP BY status ORDER BY status`,
      [org.id],
    );
    expect(Object.fromEntries(real.map((r) => [r.status, r.n]))).toEqual({ open: 2, resolved: 1 });
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const { org, user } = await seedTenant(t);
    const { item } = await seedCustomerWithDevice(t, org.id);
    const other = await seedTenant(t);
    const outsider = await seedUser(t, { organization_id: other.org.id, role: 'staff' });
    const gone = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await t.db.db.user.update({ where: { id: gone.user_id }, data: { is_active: false } });
    const ok = { serial_number: item.serial_number, category: 'device_fault', description: 'Broken' };

    const bad = async (body: object, message: string) => expect((await open(user, body).expect(400)).body.message).toBe(message);
    await bad({ ...ok, serial_number: '' }, 'serial_number: is required');
    await bad({ ...ok, category: 'broken' }, 'category: must be one of device_fault, installation, token_problem, billing, other');
    await bad({ ...ok, description: '   ' }, 'description: is required');
    await bad({ ...ok, description: 'x'.repeat(1001) }, 'description: must be at most 1000 characters');
    await bad({ ...ok, assigned_to: 'me' }, 'assigned_to: must be a positive whole number');
    await bad({ ...ok, assigned_to: outsider.user_id }, 'assigned_to: must be an active user of your organization');
    await bad({ ...ok, assigned_to: gone.user_id }, 'assigned_to: must be an active user of your organization');
    expect((await open(user, { ...ok, serial_number: 'NOPE-1' }).expect(404)).body.message).toBe('Device not found');
    expect(await t.db.db.serviceTicket.count({ where: { organization_id: org.id } })).toBe(0);

    const id = (await open(user, ok).expect(201)).body.data.ticket_id as number;
    const badPatch = async (body: object, message: string) => expect((await patch(user, id, body).expect(400)).body.message).toBe(message);
    await badPatch({}, 'status: nothing to change: give status, category, assigned_to or resolution');
    await badPatch({ status: 'closed' }, 'status: must be one of open, in_progress, resolved');
    await badPatch({ resolution: 'y'.repeat(1001) }, 'resolution: must be at most 1000 characters');
    await badPatch({ assigned_to: outsider.user_id }, 'assigned_to: must be an active user of your organization');
    await badPatch({ status: 'resolved', resolution: '  ' }, 'resolution: is required to resolve a ticket');
    await t.http.patch('/payg/tickets/abc').set(user.auth).send({ status: 'open' }).expect(400);
    await t.http.get('/payg/tickets').query({ status: 'closed' }).set(user.auth).expect(400);
    const row = await t.db.db.serviceTicket.findFirstOrThrow({ where: { organization_id: org.id, id } });
    expect(row).toMatchObject({ status: 'open', assigned_to: null, resolution: null });

    // Unassigning takes null.
    await patch(user, id, { assigned_to: user.user_id }).expect(200);
    expect((await patch(user, id, { assigned_to: null }).expect(200)).body.data.assigned_to).toBeNull();
  });

  it('gives the customer free days with the resolution: a code the device takes, in the same transaction', async () => {
    const { org, user } = await seedTenant(t);
    const { customer, item } = await seedCustomerWithDevice(t, org.id);
    const until = new Date(Date.now() + 2 * 86_400_000);
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: item.id } }, data: { credit_until: until } });
    const id = (await open(user, { serial_number: item.serial_number, category: 'device_fault', description: 'Dead for a week' }).expect(201)).body.data
      .ticket_id as number;

    // Only when resolving, and a sensible number of days: nothing issued on a refusal.
    const refuse = async (body: object, status: number, message: string) =>
      expect((await patch(user, id, body).expect(status)).body.message).toBe(message);
    await refuse({ status: 'in_progress', compensation_days: 3 }, 400, 'compensation_days: is given only when resolving a ticket (status resolved)');
    await refuse({ status: 'resolved', resolution: 'Fixed', compensation_days: 0 }, 400, 'compensation_days: must be at least 1');
    await refuse({ status: 'resolved', resolution: 'Fixed', compensation_days: 31 }, 400, 'compensation_days: must be at most 30 (issue a longer code on the Tokens page)');
    await refuse({ status: 'resolved', resolution: 'Fixed', compensation_days: 2.5 }, 400, 'compensation_days: must be a whole number of days');
    await refuse({ status: 'resolved', compensation_days: 3 }, 400, 'resolution: is required to resolve a ticket');
    expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id, item_id: item.id } })).toBe(0);

    const reply = ZTicketReplySchema.parse(
      (await patch(user, id, { status: 'resolved', resolution: 'Replaced the controller', compensation_days: 3 }).expect(200)).body,
    );
    expect(reply.data).toMatchObject({ status: 'resolved', compensation_days: 3 });
    expect(reply.token).toMatchObject({ code_type: 'add_time', days: 3, serial_number: item.serial_number });
    // The device takes it for 3 days.
    const decoded = decodeToken({ ...item.secret, state: initialTokenState(1), token: reply.token!.code_token });
    expect(decoded).toMatchObject({ status: 'VALID', type: 'ADD_TIME', value: 3 });
    // Logged, audited and counted on the device like any code staff issue; the days add to its credit.
    const log = await t.db.db.tokenLog.findFirstOrThrow({ where: { organization_id: org.id, item_id: item.id } });
    expect(log).toMatchObject({ token_value: reply.token!.code_token, generated_by: user.username, days_generated: expect.anything() });
    const device = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: item.id } } });
    expect(device.credit_until!.getTime()).toBe(until.getTime() + 3 * 86_400_000);
    const entries = await audit(org.id);
    expect(entries.at(-1)!.description).toBe(
      `Ticket #${id} (device ${item.serial_number}): Open → Resolved; resolution: Replaced the controller; 3 free days given (code count ${reply.token!.token_count})`,
    );
    expect(await t.db.platform.auditLog.count({ where: { organization_id: org.id, action: 'token.generate' } })).toBe(1);

    // Once resolved, free days go through the Tokens page; opened again and resolved again, they add up, and this
    // time the code is texted to the customer (even one who texted STOP: it is their code, as a payment's is).
    await refuse({ status: 'resolved', compensation_days: 2 }, 409, `Ticket #${id} is already resolved: give free days on the Tokens page`);
    await patch(user, id, { status: 'open' }).expect(200);
    await refuse({ status: 'resolved', send_code_sms: true }, 400, 'send_code_sms: is only for the code of free days (give compensation_days)');
    await refuse(
      { status: 'resolved', compensation_days: 2, send_code_sms: true },
      409,
      'No SMS provider is set up to text the code: an owner or admin sets one in Settings → SMS Provider',
    );
    await t.http.put('/payg/settings/sms-provider').set(user.auth).send({ provider: 'sms_webhook', config: { url: 'http://127.0.0.1:9/sms' } }).expect(200);
    await t.db.db.customer.update({
      where: { organization_id_id: { organization_id: org.id, id: customer.id } },
      data: { customer_name: 'Grace Achieng', phone_contact: '0722 111 222', phone_normalized: '254722111222', sms_opted_out_at: new Date(), sms_opt_out_source: 'sms' },
    });
    const again = ZTicketReplySchema.parse((await patch(user, id, { status: 'resolved', compensation_days: 2, send_code_sms: true }).expect(200)).body);
    expect(again.data.compensation_days).toBe(5);
    const text = `Kidogo: Hi Grace, device ${item.serial_number} is fixed. Enter code ${again.token!.code_token.replace(/(\d{3})(?=\d)/g, '$1 ')} for 2 free days of use.`;
    expect(again.code_sms).toEqual({ message_id: expect.any(Number), recipient_number: '254722111222', text });
    const queued = await t.db.db.message.findFirstOrThrow({ where: { organization_id: org.id, id: again.code_sms!.message_id } });
    expect(queued).toMatchObject({ forwarded_message: text, recipient_number: '254722111222', delivery_status: 'queued', item_id: item.id, sent_by: user.username });
    expect((await audit(org.id)).at(-1)!.description).toContain('2 free days given (code count');
    expect((await audit(org.id)).at(-1)!.description).toContain('texted to 254722111222');

    // A device nobody has, or one paid off, needs no free days; the resolution is refused with them, not half made.
    const spare = await seedItem(t, org.id);
    const other = (await open(user, { serial_number: spare.serial_number, category: 'device_fault', description: 'In the store' }).expect(201)).body.data
      .ticket_id as number;
    const stock = await patch(user, other, { status: 'resolved', resolution: 'Fixed', compensation_days: 1 }).expect(409);
    expect(stock.body.message).toBe(`Device ${spare.serial_number} has no customer: there is nobody to give free days to`);
    expect((await t.http.get(`/payg/tickets/${other}`).set(user.auth).expect(200)).body.data).toMatchObject({ status: 'open', resolution: null });
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: item.id } }, data: { paid_off_at: new Date() } });
    const paid = (await open(user, { serial_number: item.serial_number, category: 'other', description: 'Loose cable' }).expect(201)).body.data.ticket_id;
    const paidOff = await patch(user, paid, { status: 'resolved', resolution: 'Tightened', compensation_days: 1 }).expect(409);
    expect(paidOff.body.message).toBe(`Device ${item.serial_number} is paid off: it needs no free days`);
  });

  it('reports the tickets opened in a period, with days to resolve and free days, on screen and as CSV', async () => {
    const { org, user } = await seedTenant(t);
    const tech = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const { customer, item } = await seedCustomerWithDevice(t, org.id);
    const spare = await seedItem(t, org.id);
    const first = (await open(user, { serial_number: item.serial_number, category: 'device_fault', description: 'Dead' }).expect(201)).body.data.ticket_id;
    await patch(user, first, { assigned_to: tech.user_id, status: 'resolved', resolution: 'New battery', compensation_days: 4 }).expect(200);
    const second = (await open(user, { serial_number: spare.serial_number, category: 'installation', description: 'Mount' }).expect(201)).body.data.ticket_id;
    // The first was opened three days before it was resolved; an old one falls outside the period.
    const day = 86_400_000;
    await t.db.pool.query(`UPDATE service_tickets SET opened_at = resolved_at - interval '3 days 2 hours' WHERE ticket_id = $1`, [first]);
    const old = (await open(user, { serial_number: spare.serial_number, category: 'other', description: 'Old' }).expect(201)).body.data.ticket_id;
    await t.db.pool.query(`UPDATE service_tickets SET opened_at = now() - interval '400 days' WHERE ticket_id = $1`, [old]);

    const from = new Date(Date.now() - 30 * day).toISOString().slice(0, 10);
    const report = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(user.auth).send({ report: 'tickets', from }).expect(200)).body);
    expect(report.report).toBe('tickets');
    expect(report.columns.map((c) => c.label)).toEqual(['Ticket', 'Opened', 'Serial Number', 'Customer', 'Category', 'Status', 'Assigned To', 'Resolved', 'Days to Resolve', 'Free Days']);
    expect(report.rows.map((r) => [r.ticket_id, r.serial_number, r.customer_name, r.category, r.status, r.assigned_to, r.days_to_resolve, r.free_days])).toEqual([
      [second, spare.serial_number, null, 'Installation', 'Open', null, null, null],
      [first, item.serial_number, customer.customer_name, 'Device fault', 'Resolved', tech.username, 3, 4],
    ]);
    expect(report.totals).toEqual({ rows: 2, free_days: 4 });
    const csv = await t.http.post('/payg/reports/page').set(user.auth).send({ report: 'tickets', from, format: 'csv' }).expect(200);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="tickets-report-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(csv.text).toContain(item.serial_number);
    const pdf = await t.http.post('/payg/reports/page').set(user.auth).send({ report: 'tickets', from, format: 'pdf' }).buffer(true).expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const everything = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(user.auth).send({ report: 'tickets' }).expect(200)).body);
    expect(everything.rows.map((r) => r.ticket_id)).toEqual([second, first, old]);
  });

  it("keeps each organization's tickets to itself", async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    const { item } = await seedCustomerWithDevice(t, a.org.id);
    const id = (await open(a.user, { serial_number: item.serial_number, category: 'installation', description: 'Mount the panel' }).expect(201)).body
      .data.ticket_id as number;

    await t.http.get(`/payg/tickets/${id}`).set(b.user.auth).expect(404);
    await t.http.get(`/payg/tickets/${id}/history`).set(b.user.auth).expect(404);
    await patch(b.user, id, { status: 'resolved', resolution: 'done' }).expect(404);
    await open(b.user, { serial_number: item.serial_number, category: 'other', description: 'x' }).expect(404);
    const theirs = await list(b.user, { status: 'all', serial_number: item.serial_number });
    expect(theirs).toMatchObject({ items: [], counts: { open: 0, in_progress: 0, resolved: 0 } });
    const names = ZTicketAssigneesReplySchema.parse((await t.http.get('/payg/tickets/assignees').set(b.user.auth).expect(200)).body).data;
    expect(names.map((u) => u.username)).toEqual([b.user.username]);
    expect((await t.db.db.serviceTicket.findFirstOrThrow({ where: { organization_id: a.org.id, id } })).status).toBe('open');
  });
});
