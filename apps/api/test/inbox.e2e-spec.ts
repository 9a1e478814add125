import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ZMarkNotificationsReadReplySchema,
  ZMyNotificationsReplySchema,
  ZNotificationSettingsSchema,
  ZTicketHistoryReplySchema,
  ZTicketReplySchema,
  type MyNotificationsQuery,
} from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { mpesaCode, mpesaPaybillSms, seedApiKey, seedCustomerWithDevice, seedItem, seedTenant, seedUser, type SeededUser } from './support/factories.js';
import { Calendar } from '../src/common/calendar.js';
import { isoDayOf } from '../src/metrics/period.js';
import { NoticeSweepService } from '../src/notifications/notice-sweep.service.js';

// A user's own notifications (README "Your notifications"): what happened to
// their work, told to them alone, in the transaction of the change.

describe('your notifications', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const inbox = async (user: SeededUser, query: Partial<MyNotificationsQuery> = {}) =>
    ZMyNotificationsReplySchema.parse((await t.http.get('/payg/me/notifications').query(query).set(user.auth).expect(200)).body).data;
  const markRead = async (user: SeededUser, body: object) =>
    ZMarkNotificationsReadReplySchema.parse((await t.http.post('/payg/me/notifications/read').set(user.auth).send(body).expect(200)).body).data;
  const openTicket = async (user: SeededUser, serial: string, extra: object = {}) =>
    ZTicketReplySchema.parse(
      (await t.http.post('/payg/tickets').set(user.auth).send({ serial_number: serial, category: 'device_fault', description: 'No light', ...extra }).expect(201)).body,
    ).data;
  const patch = (user: SeededUser, id: number, body: object) => t.http.patch(`/payg/tickets/${id}`).set(user.auth).send(body).expect(200);

  it('tells a technician of a ticket given to them, the opener of its resolution, and the assignee of its reopening', async () => {
    const { org, user: owner } = await seedTenant(t);
    const tech = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const other = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const item = await seedItem(t, org.id);

    // Opened and assigned at once by the owner: the technician is told, the owner (who did it) is not.
    const ticket = await openTicket(owner, item.serial_number, { assigned_to: tech.user_id });
    let mine = await inbox(tech);
    expect(mine).toMatchObject({ unread: 1, next_before: null });
    expect(mine.items).toEqual([
      {
        id: expect.any(Number),
        kind: 'ticket_assigned',
        message: `Ticket #${ticket.ticket_id} on ${item.serial_number} (Device fault) was assigned to you by ${owner.username}`,
        ticket_id: ticket.ticket_id,
        serial_number: item.serial_number,
        actor: owner.username,
        collector: null,
        created_at: expect.any(String),
        read_at: null,
      },
    ]);
    expect(await inbox(owner)).toMatchObject({ items: [], unread: 0 });
    expect(await inbox(other)).toMatchObject({ items: [], unread: 0 });

    // Assigning oneself tells nobody; handing it to a colleague tells the colleague.
    await patch(tech, ticket.ticket_id, { assigned_to: other.user_id });
    await patch(other, ticket.ticket_id, { assigned_to: other.user_id, status: 'in_progress' });
    expect((await inbox(other)).items.map((n) => [n.kind, n.actor])).toEqual([['ticket_assigned', tech.username]]);

    // Resolved by the colleague: the owner, who opened it, hears what was done.
    await patch(other, ticket.ticket_id, { status: 'resolved', resolution: 'Replaced the battery' });
    const owners = await inbox(owner);
    expect(owners.unread).toBe(1);
    expect(owners.items[0]).toMatchObject({
      kind: 'ticket_resolved',
      actor: other.username,
      message: `Ticket #${ticket.ticket_id} on ${item.serial_number}, which you opened, was resolved by ${other.username}`,
    });

    // Opened again by the owner: the colleague it is assigned to is told; the owner is not told of their own change.
    await patch(owner, ticket.ticket_id, { status: 'open' });
    const reopened = await inbox(other);
    expect(reopened.items.map((n) => n.kind)).toEqual(['ticket_reopened', 'ticket_assigned']);
    expect(reopened.items[0]!.message).toBe(`Ticket #${ticket.ticket_id} on ${item.serial_number}, assigned to you, was opened again by ${owner.username}`);
    expect((await inbox(owner)).items).toHaveLength(1);

    // A resolution by the opener themselves tells nobody.
    const own = await openTicket(owner, item.serial_number);
    await patch(owner, own.ticket_id, { status: 'resolved', resolution: 'Explained the buttons' });
    expect((await inbox(owner)).items).toHaveLength(1);

    // Each one is in the Activity Log's transaction: a refused change (no resolution) tells nobody.
    const unresolved = await openTicket(owner, item.serial_number);
    await t.http.patch(`/payg/tickets/${unresolved.ticket_id}`).set(owner.auth).send({ status: 'resolved', assigned_to: tech.user_id }).expect(400);
    expect((await inbox(tech)).items).toHaveLength(1);
  });

  it('keeps notes on a ticket in its history and tells whoever opened it or is assigned it, but the writer', async () => {
    const { org, user: owner } = await seedTenant(t);
    const tech = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const item = await seedItem(t, org.id);
    const ticket = await openTicket(owner, item.serial_number, { assigned_to: tech.user_id });
    const note = (user: SeededUser, body: object, id = ticket.ticket_id) => t.http.post(`/payg/tickets/${id}/notes`).set(user.auth).send(body);

    // The technician notes the visit: the ticket's history answers with it last; the owner, who opened it, is told.
    const history = ZTicketHistoryReplySchema.parse((await note(tech, { note: '  Visited; the panel cable is cut. Ordered a new one.  ' }).expect(201)).body).data;
    expect(history.map((e) => e.action)).toEqual(['ticket.opened', 'ticket.noted']);
    expect(history[1]).toMatchObject({
      actor_username: tech.username,
      description: `Ticket #${ticket.ticket_id} (device ${item.serial_number}): Note: Visited; the panel cable is cut. Ordered a new one.`,
    });
    const owners = await inbox(owner);
    expect(owners.items.map((n) => [n.kind, n.message])).toEqual([
      ['ticket_noted', `${tech.username} added a note to ticket #${ticket.ticket_id} on ${item.serial_number}`],
    ]);
    expect((await inbox(tech)).items.map((n) => n.kind)).toEqual(['ticket_assigned']);
    // The ticket shows it moved, without its status changing.
    const after = ZTicketReplySchema.parse((await t.http.get(`/payg/tickets/${ticket.ticket_id}`).set(owner.auth).expect(200)).body).data;
    expect(after.status).toBe('open');
    expect(new Date(after.updated_at).getTime()).toBeGreaterThan(new Date(ticket.updated_at).getTime());

    // The owner's reply: the technician is told; a resolved ticket takes notes too.
    await patch(tech, ticket.ticket_id, { status: 'resolved', resolution: 'New cable fitted' });
    await note(owner, { note: 'Customer called to say thanks' }).expect(201);
    expect((await inbox(tech)).items.map((n) => n.kind)).toEqual(['ticket_noted', 'ticket_assigned']);

    // A bad note or an unknown ticket: a 400 naming the field or a 404, and nothing written.
    const entries = async () => (await t.db.pool.query(`SELECT count(*)::int AS n FROM audit_logs WHERE organization_id = $1 AND action = 'ticket.noted'`, [org.id])).rows[0].n;
    const before = await entries();
    expect((await note(owner, {}).expect(400)).body.message).toBe('note: is required');
    expect((await note(owner, { note: '   ' }).expect(400)).body.message).toBe('note: is required');
    expect((await note(owner, { note: 'x'.repeat(1001) }).expect(400)).body.message).toBe('note: must be at most 1000 characters');
    expect((await note(owner, { note: 'Hello' }, 999_999).expect(404)).body.message).toBe('Ticket not found');
    expect(await entries()).toBe(before);
  });

  it("tells a collector on the day of a customer's promise to pay, and the day after if it was not kept, once each", async () => {
    const { org, user: owner } = await seedTenant(t);
    const collector = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const leaver = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const devices = [];
    for (let i = 0; i < 5; i++) devices.push((await seedCustomerWithDevice(t, org.id)).item);
    const calendar = t.app.get(Calendar);
    const sweeps = t.app.get(NoticeSweepService);
    const today = calendar.today();
    const at = (day: number) => new Date(calendar.startOf(day).getTime() + 9 * 3_600_000);
    const promise = async (user: SeededUser, itemId: number, day: number) =>
      (await t.http.post(`/payg/collections/${itemId}/contacts`).set(user.auth).send({ outcome: 'promised_to_pay', promised_on: isoDayOf(day) }).expect(201)).body
        .data;
    const [kept, broken, late, superseded, leavers] = devices;
    await promise(collector, kept!.id, today + 2);
    await promise(collector, broken!.id, today + 2);
    await promise(collector, late!.id, today + 5);
    await promise(collector, superseded!.id, today + 2);
    await promise(owner, superseded!.id, today + 2); // the owner called again: the customer's newer promise replaces it
    await promise(leaver, leavers!.id, today + 2);
    await t.http.put(`/payg/users/${leaver.user_id}`).set(owner.auth).send({ is_active: false }).expect(200);
    const kinds = async (user: SeededUser) => (await inbox(user)).items.map((n) => [n.kind, n.serial_number]);

    // Before the day: nothing.
    expect(await sweeps.sweep(at(today + 1))).toMatchObject({ notified: 0 });
    expect(await kinds(collector)).toEqual([]);

    // The day: the collector is told of both promises still standing (not the one a newer promise replaced: the owner,
    // who logged that, is told of it), once however often the processes sweep; a user no longer active is not.
    const logged = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: calendar.zone }).format(new Date());
    expect((await sweeps.sweep(at(today + 2))).notified).toBe(3);
    expect((await sweeps.sweep(at(today + 2))).notified).toBe(0);
    const due = await inbox(collector);
    expect(due.items.map((n) => [n.kind, n.serial_number]).sort()).toEqual([
      ['promise_due', broken!.serial_number],
      ['promise_due', kept!.serial_number],
    ].sort());
    expect(due.items.find((n) => n.serial_number === kept!.serial_number)).toMatchObject({
      message: `A promise to pay for ${kept!.serial_number} is due today: you logged it on ${logged}`,
      ticket_id: null,
      actor: null,
      read_at: null,
    });
    expect(await t.db.pool.query('SELECT 1 FROM user_notifications WHERE user_id = $1', [leaver.user_id])).toMatchObject({ rowCount: 0 });
    expect(await kinds(owner)).toEqual([['promise_due', superseded!.serial_number]]);

    // One is kept that day; the next day the collector hears of the other, once.
    await t.db.pool.query(`UPDATE collection_contacts SET paid_at = now() WHERE organization_id = $1 AND item_id = $2 AND NOT superseded`, [org.id, kept!.id]);
    expect((await sweeps.sweep(at(today + 3))).notified).toBe(2);
    expect((await sweeps.sweep(at(today + 4))).notified).toBe(0);
    const after = await inbox(collector);
    expect(after.items[0]).toMatchObject({
      kind: 'promise_broken',
      serial_number: broken!.serial_number,
      message: `A promise to pay for ${broken!.serial_number} by ${new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${isoDayOf(today + 2)}T12:00:00Z`))} was not kept: nothing was paid by that day`,
    });
    expect(after.unread).toBe(3);

    // After a long outage, a promise whose day is long past is not told of: only the last few days are.
    expect((await sweeps.sweep(at(today + 12))).notified).toBe(0);
    expect((await inbox(collector)).items.filter((n) => n.serial_number === late!.serial_number)).toEqual([]);

    // A promise made for the day it is logged is not told of as due: the collector just logged it.
    const fresh = (await seedCustomerWithDevice(t, org.id)).item;
    await promise(collector, fresh.id, today);
    await sweeps.sweep(at(today));
    expect((await inbox(collector)).items.filter((n) => n.serial_number === fresh.serial_number)).toEqual([]);

    // A suspended organization's collectors are not told.
    const other = await seedTenant(t);
    const otherDevice = (await seedCustomerWithDevice(t, other.org.id)).item;
    await promise(other.user, otherDevice.id, today + 2);
    await t.db.pool.query(`UPDATE organizations SET status = 'suspended' WHERE organization_id = $1`, [other.org.id]);
    await sweeps.sweep(at(today + 2));
    expect(await t.db.pool.query('SELECT 1 FROM user_notifications WHERE organization_id = $1', [other.org.id])).toMatchObject({ rowCount: 0 });
  });

  it('tells owners and admins of payments held for matching: one line for all those since the last they were told of', async () => {
    const { org, user: owner } = await seedTenant(t);
    const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const key = await seedApiKey(t, owner);
    const sweeps = t.app.get(NoticeSweepService);
    const receive = (amount: string, code: string, account = 'NOWHERE-1') =>
      t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ message: mpesaPaybillSms({ code, amount, account }), from: 'MPESA' }).expect(200);
    const held = async (user: SeededUser) => (await inbox(user)).items.filter((n) => n.kind === 'payments_held');

    // Nothing held: nothing told.
    await sweeps.sweep();
    expect(await held(owner)).toEqual([]);

    // One payment nobody's device matches: each owner and admin is told, once; staff (who cannot match) are not.
    const first = mpesaCode('H');
    await receive('55.00', first);
    // Two processes looking at once (the sweep's own run, twice, on two connections) tell each user once.
    const run = (sweeps as unknown as { run: (now: Date) => Promise<{ held: number }> }).run.bind(sweeps);
    const both = await Promise.all([run(new Date()), run(new Date())]);
    expect(both[0].held + both[1].held).toBe(2);
    expect((await sweeps.sweep()).held).toBe(0);
    for (const user of [owner, admin]) {
      expect(await held(user)).toEqual([
        expect.objectContaining({ message: `A payment of KES 55.00 (receipt ${first}) is held for matching`, actor: null, ticket_id: null, read_at: null }),
      ]);
    }
    expect(await held(staff)).toEqual([]);

    // A month-end burst: three more, told of in one line each, naming the newest.
    const codes = [mpesaCode('H'), mpesaCode('H'), mpesaCode('H')];
    await receive('1000.00', codes[0]!);
    await receive('20.50', codes[1]!);
    await receive('1234567.00', codes[2]!);
    expect((await sweeps.sweep()).held).toBe(2);
    expect((await held(owner))[0]!.message).toBe(`3 payments are held for matching; the newest: KES 1,234,567.00 (receipt ${codes[2]})`);

    // An admin who joins later hears of those still held (the first, matched or rejected meanwhile, is not counted).
    const payment = await t.db.pool.query('SELECT payment_id FROM payments WHERE organization_id = $1 AND transaction_code = $2', [org.id, first]);
    await t.http.post(`/payg/payments/${payment.rows[0].payment_id}/reject`).set(owner.auth).send({ reason: 'Refunded to the customer' }).expect(200);
    const later = await seedUser(t, { organization_id: org.id, role: 'admin' });
    expect((await sweeps.sweep()).held).toBe(1);
    expect((await held(later))[0]!.message).toMatch(/^3 payments are held for matching/);

    // A suspended organization's owners are not told.
    await receive('10.00', mpesaCode('H'));
    await t.db.pool.query(`UPDATE organizations SET status = 'suspended' WHERE organization_id = $1`, [org.id]);
    expect((await sweeps.sweep()).held).toBe(0);
  });

  it('tells nobody of a kind they turned off, and keeps what they already have', async () => {
    const { org, user: owner } = await seedTenant(t);
    const tech = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const item = await seedItem(t, org.id);
    const settings = async (user: SeededUser) =>
      ZNotificationSettingsSchema.parse((await t.http.get('/payg/me/notification-settings').set(user.auth).expect(200)).body).data;
    const put = async (user: SeededUser, muted: string[]) =>
      ZNotificationSettingsSchema.parse((await t.http.put('/payg/me/notification-settings').set(user.auth).send({ muted }).expect(200)).body).data;

    // Every kind is on until turned off; none is emailed until chosen.
    expect(await settings(tech)).toEqual({ muted: [], emailed: [], email: expect.stringMatching(/@example\.test$/), email_available: true, daily_summary: false });
    await openTicket(owner, item.serial_number, { assigned_to: tech.user_id });
    expect((await inbox(tech)).items).toHaveLength(1);

    // Off (repeats dropped, in the kinds' own order): the next assignment tells nobody; the first stays.
    expect(await put(tech, ['ticket_reopened', 'ticket_assigned', 'ticket_assigned'])).toMatchObject({ muted: ['ticket_assigned', 'ticket_reopened'] });
    expect(await settings(tech)).toMatchObject({ muted: ['ticket_assigned', 'ticket_reopened'] });
    await openTicket(owner, item.serial_number, { assigned_to: tech.user_id });
    expect((await inbox(tech)).items).toHaveLength(1);
    // Someone else's settings are theirs: the owner is still told when the technician resolves the owner's ticket.
    const ticket = await openTicket(owner, item.serial_number, { assigned_to: tech.user_id });
    await patch(tech, ticket.ticket_id, { status: 'resolved', resolution: 'Done' });
    expect((await inbox(owner)).items.map((n) => n.kind)).toEqual(['ticket_resolved']);

    // An owner who turned held payments off is not told of them; back on, they hear of those still held.
    const key = await seedApiKey(t, owner);
    await put(owner, ['payments_held']);
    await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ message: mpesaPaybillSms({ code: mpesaCode('H'), amount: '70.00', account: 'NOWHERE-2' }), from: 'MPESA' }).expect(200);
    const sweeps = t.app.get(NoticeSweepService);
    expect((await sweeps.sweep()).held).toBe(0);
    expect(await put(owner, [])).toMatchObject({ muted: [] });
    expect((await sweeps.sweep()).held).toBe(1);
    expect((await inbox(owner)).items[0]).toMatchObject({ kind: 'payments_held', message: expect.stringMatching(/^A payment of KES 70\.00 /) });

    // All on again for the technician: told again.
    await put(tech, []);
    await openTicket(owner, item.serial_number, { assigned_to: tech.user_id });
    expect((await inbox(tech)).items).toHaveLength(2);

    // Bad input: a 400 naming the field, and nothing changes.
    await put(tech, ['promise_due']);
    for (const [body, message] of [
      [{}, 'muted: must be a list of notification kinds'],
      [{ muted: 'all' }, 'muted: must be a list of notification kinds'],
      [{ muted: ['everything'] }, 'muted.0: must be one of ticket_assigned, ticket_resolved, ticket_reopened, ticket_noted, promise_due, promise_broken, payments_held, payment_request_answered, cash_overdue, ticket_reported'],
      [{ muted: Array(11).fill('promise_due') }, 'muted: must name at most 10 kinds'],
    ] as const) {
      const res = await t.http.put('/payg/me/notification-settings').set(tech.auth).send(body).expect(400);
      expect(res.body.message).toBe(message);
    }
    expect(await settings(tech)).toMatchObject({ muted: ['promise_due'], emailed: [] });
  });

  it('marks read one at a time or all at once, pages back with before and keeps the unread filter', async () => {
    const { org, user: owner } = await seedTenant(t);
    const tech = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const item = await seedItem(t, org.id);
    const tickets = [];
    for (let i = 0; i < 5; i++) tickets.push(await openTicket(owner, item.serial_number, { assigned_to: tech.user_id }));

    const first = await inbox(tech, { limit: 2 });
    expect(first.unread).toBe(5);
    expect(first.items.map((n) => n.ticket_id)).toEqual([tickets[4]!.ticket_id, tickets[3]!.ticket_id]);
    expect(first.next_before).toBe(first.items[1]!.id);
    const second = await inbox(tech, { limit: 2, before: first.next_before! });
    expect(second.items.map((n) => n.ticket_id)).toEqual([tickets[2]!.ticket_id, tickets[1]!.ticket_id]);
    const last = await inbox(tech, { limit: 2, before: second.next_before! });
    expect(last.items.map((n) => n.ticket_id)).toEqual([tickets[0]!.ticket_id]);
    expect(last.next_before).toBeNull();

    // One read: the count drops, the unread filter leaves it out, the list keeps it with its read time.
    expect(await markRead(tech, { ids: [first.items[0]!.id] })).toEqual({ marked: 1, unread: 4 });
    expect(await markRead(tech, { ids: [first.items[0]!.id] })).toEqual({ marked: 0, unread: 4 });
    expect((await inbox(tech, { unread: true })).items.map((n) => n.ticket_id)).not.toContain(tickets[4]!.ticket_id);
    expect((await inbox(tech)).items[0]!.read_at).toEqual(expect.any(String));

    // The owner cannot mark the technician's: ids of others are passed over.
    expect(await markRead(owner, { ids: [first.items[1]!.id] })).toEqual({ marked: 0, unread: 0 });
    expect((await inbox(tech)).unread).toBe(4);

    // All at once.
    expect(await markRead(tech, {})).toEqual({ marked: 4, unread: 0 });
    expect((await inbox(tech, { unread: true })).items).toEqual([]);
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const { org, user: owner } = await seedTenant(t);
    const tech = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const item = await seedItem(t, org.id);
    await openTicket(owner, item.serial_number, { assigned_to: tech.user_id });

    for (const [query, field] of [
      [{ limit: 0 }, 'limit'],
      [{ limit: 101 }, 'limit'],
      [{ unread: 'maybe' }, 'unread'],
      [{ before: 'x' }, 'before'],
    ] as const) {
      const res = await t.http.get('/payg/me/notifications').query(query).set(tech.auth).expect(400);
      expect(res.body.message).toMatch(new RegExp(`^${field}: `));
    }
    for (const [body, message] of [
      [{ ids: [] }, 'ids: must name at least one notification (leave ids out to mark all read)'],
      [{ ids: 'all' }, 'ids: must be a list of notification ids'],
      [{ ids: [0] }, 'ids.0: must be a positive whole number'],
      [{ ids: Array.from({ length: 101 }, (_, i) => i + 1) }, 'ids: must name at most 100 notifications'],
    ] as const) {
      const res = await t.http.post('/payg/me/notifications/read').set(tech.auth).send(body).expect(400);
      expect(res.body.message).toBe(message);
    }
    expect((await inbox(tech)).unread).toBe(1);
  });

  it("keeps each user's notifications theirs: another organization's ids are passed over and a deleted device takes its notifications along", async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    const techA = await seedUser(t, { organization_id: a.org.id, role: 'staff' });
    const item = await seedItem(t, a.org.id);
    const ticket = await openTicket(a.user, item.serial_number, { assigned_to: techA.user_id });
    const [n] = (await inbox(techA)).items;

    expect(await inbox(b.user)).toMatchObject({ items: [], unread: 0 });
    expect(await markRead(b.user, { ids: [n!.id] })).toEqual({ marked: 0, unread: 0 });
    expect(await markRead(b.user, {})).toEqual({ marked: 0, unread: 0 });
    expect((await inbox(techA)).items[0]).toMatchObject({ id: n!.id, read_at: null });

    // A user cannot be assigned across organizations, so nobody in B is ever told of A's tickets.
    await t.http.patch(`/payg/tickets/${ticket.ticket_id}`).set(a.user.auth).send({ assigned_to: b.user.user_id }).expect(400);
    expect((await inbox(b.user)).items).toEqual([]);

    // A ticket deleted (with its device): its notifications go with it, not left pointing at nothing.
    await t.db.pool.query('DELETE FROM service_tickets WHERE organization_id = $1 AND ticket_id = $2', [a.org.id, ticket.ticket_id]);
    expect(await inbox(techA)).toMatchObject({ items: [], unread: 0 });
  });
});
