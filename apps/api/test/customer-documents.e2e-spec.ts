import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  DOCUMENT_MAX_BYTES,
  DOCUMENTS_PER_CUSTOMER_MAX,
  ZCustomerDocumentReplySchema,
  ZCustomerDocumentsReplySchema,
  ZEraseCustomerReplySchema,
  ZPersonalDataExportSchema,
  ZReportSchema,
} from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { binaryParser } from './support/pdf.js';
import { unzip } from './support/zip.js';
import { seedCustomer, seedCustomerWithDevice, seedTenant, seedUser, type SeededUser } from './support/factories.js';

// A customer's documents (README "Customer documents"): the ID card, photos and
// the signed agreement, kept with the customer in PostgreSQL.

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]), randomBytes(2048), Buffer.from([0xff, 0xd9])]);
const pdf = () => Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(512), Buffer.from('\n%%EOF\n')]);
const png = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(256)]);
const webp = () => {
  const body = Buffer.concat([Buffer.from('WEBPVP8 '), randomBytes(128)]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF'), size, body]);
};

describe("a customer's documents", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const add = (user: SeededUser, customerId: number | string, file: Buffer | null, name: string, fields: Record<string, string> = { kind: 'id_front' }) => {
    let req = t.http.post(`/payg/customers/${customerId}/documents`).set(user.auth);
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    return file ? req.attach('file', file, name) : req;
  };
  const list = (user: SeededUser, customerId: number) => t.http.get(`/payg/customers/${customerId}/documents`).set(user.auth);
  const fileOf = (user: SeededUser, customerId: number, documentId: number, query = '') =>
    t.http.get(`/payg/customers/${customerId}/documents/${documentId}/file${query}`).set(user.auth).buffer(true).parse(binaryParser);
  const stored = async (org: string) => (await t.db.pool.query(`SELECT count(*)::int AS n FROM customer_documents WHERE organization_id = $1`, [org])).rows[0].n as number;

  it('staff add photos and PDFs to a customer; any user lists them and gets each file back as it was sent', async () => {
    const { org, user: owner } = await seedTenant(t);
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const customer = await seedCustomer(t, org.id, { customer_name: 'Chebet Kiprop' });

    const name = 'Kitambulisho – Chebet (mbele).jpg';
    const added = await add(staff, customer.id, JPEG, name, { kind: 'id_front', note: '  Taken at the shop  ' }).expect(201);
    const front = ZCustomerDocumentReplySchema.parse(added.body);
    expect(front).toMatchObject({
      message: 'ID card (front) added',
      data: {
        customer_id: customer.id,
        kind: 'id_front',
        file_name: name,
        content_type: 'image/jpeg',
        size_bytes: JPEG.length,
        sha256: createHash('sha256').update(JPEG).digest('hex'),
        note: 'Taken at the shop',
        uploaded_by: staff.username,
      },
    });
    // The type is what the bytes are, whatever the name says; a name without an extension gets the type's.
    const agreement = ZCustomerDocumentReplySchema.parse((await add(staff, customer.id, pdf(), 'scan', { kind: 'agreement' }).expect(201)).body).data;
    expect(agreement).toMatchObject({ content_type: 'application/pdf', file_name: 'scan.pdf', note: null });
    const back = ZCustomerDocumentReplySchema.parse((await add(owner, customer.id, png(), 'C:\\Users\\agent\\back.jpg', { kind: 'id_back' }).expect(201)).body).data;
    expect(back).toMatchObject({ content_type: 'image/png', file_name: 'back.jpg' });
    const home = ZCustomerDocumentReplySchema.parse((await add(owner, customer.id, webp(), 'home.webp', { kind: 'installation' }).expect(201)).body).data;
    expect(home.content_type).toBe('image/webp');

    const listed = ZCustomerDocumentsReplySchema.parse((await list(staff, customer.id).expect(200)).body);
    expect(listed.data.map((d) => d.document_id)).toEqual([home.document_id, back.document_id, agreement.document_id, front.data.document_id]);
    expect(listed.remaining).toBe(DOCUMENTS_PER_CUSTOMER_MAX - 4);
    expect(JSON.stringify(listed)).not.toContain('content"');

    const shown = await fileOf(staff, customer.id, front.data.document_id).expect(200);
    expect(Buffer.compare(shown.body as Buffer, JPEG)).toBe(0);
    expect(shown.headers['content-type']).toBe('image/jpeg');
    expect(shown.headers['content-disposition']).toBe(`inline; filename="Kitambulisho _ Chebet (mbele).jpg"; filename*=UTF-8''${encodeURIComponent(name)}`);
    expect(shown.headers['content-security-policy']).toContain('sandbox');
    expect(shown.headers['x-content-type-options']).toBe('nosniff');
    expect(shown.headers['cache-control']).toBe('no-store');
    const saved = await fileOf(owner, customer.id, agreement.document_id, '?download=true').expect(200);
    expect(saved.headers['content-type']).toBe('application/pdf');
    expect(saved.headers['content-disposition']).toMatch(/^attachment; filename="scan\.pdf"/);
    // Another customer's path to the document: not found.
    const other = await seedCustomer(t, org.id);
    await fileOf(owner, other.id, front.data.document_id).expect(404);

    const entry = await t.db.platform.auditLog.findFirst({ where: { organization_id: org.id, action: 'customer.document_added' }, orderBy: { id: 'asc' } });
    expect(entry).toMatchObject({
      actor_username: staff.username,
      entity_type: 'customer',
      entity_id: String(customer.id),
      description: `${staff.username} added ID card (front) (${name}) for customer Chebet Kiprop`,
    });
    expect(entry?.metadata).toMatchObject({ document_id: front.data.document_id, kind: 'id_front', size_bytes: JPEG.length });
  });

  it('refuses what is not a photo or a PDF, an empty or oversized file and bad fields, naming each, and stores nothing', async () => {
    const { org, user } = await seedTenant(t);
    const customer = await seedCustomer(t, org.id);
    const cases: Array<[ReturnType<typeof add>, number, RegExp]> = [
      [add(user, customer.id, null, '', { kind: 'id_front' }), 400, /^file: is required/],
      [t.http.post(`/payg/customers/${customer.id}/documents`).set(user.auth).send({ kind: 'id_front' }), 400, /^file: is required/],
      [add(user, customer.id, Buffer.from('name,phone\nA,1\n'), 'id.jpg'), 400, /^file: must be a photo \(JPEG, PNG or WebP\) or a PDF$/],
      [add(user, customer.id, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'x.svg'), 400, /^file: must be a photo/],
      [add(user, customer.id, Buffer.alloc(0), 'empty.jpg'), 400, /^file: is empty$/],
      [add(user, customer.id, JPEG, 'a.jpg', {}), 400, /^kind: must be one of id_front, id_back, photo, installation, agreement, other$/],
      [add(user, customer.id, JPEG, 'a.jpg', { kind: 'passport' }), 400, /^kind: /],
      [add(user, customer.id, JPEG, 'a.jpg', { kind: 'photo', note: 'x'.repeat(201) }), 400, /^note: must be at most 200 characters$/],
      [add(user, customer.id, JPEG, 'a.jpg', { kind: 'photo', colour: 'red' }), 400, /^colour: is not an accepted field$/],
      [add(user, customer.id, JPEG, 'a.jpg', { kind: 'photo', note: 'bad\u0000text' }), 400, /^note: must not contain NUL/],
      [t.http.post(`/payg/customers/${customer.id}/documents`).set(user.auth).field('kind', 'photo').attach('photo', JPEG, 'a.jpg'), 400, /^file: send the file in the multipart field "file" \(got "photo"\)$/],
      [add(user, customer.id, Buffer.concat([JPEG, Buffer.alloc(DOCUMENT_MAX_BYTES)]), 'huge.jpg', { kind: 'photo' }), 413, /^file: the file is larger than the upload limit of 10 MB; send a smaller photo or scan$/],
      [add(user, 'abc', JPEG, 'a.jpg'), 400, /^id: /],
      [add(user, 2_000_000_000, JPEG, 'a.jpg'), 404, /^Customer not found$/],
    ];
    for (const [request, status, message] of cases) {
      const res = await request;
      expect({ status: res.status, message: res.body.message }).toEqual({ status, message: expect.stringMatching(message) });
    }
    await t.http.get(`/payg/customers/${customer.id}/documents/1/file?download=maybe`).set(user.auth).expect(400, /download: must be true or false/);
    await t.http.get(`/payg/customers/${customer.id}/documents/0/file`).set(user.auth).expect(400);
    expect(await stored(org.id)).toBe(0);
    expect(await t.db.platform.auditLog.count({ where: { organization_id: org.id, action: 'customer.document_added' } })).toBe(0);
  });

  it('refuses the same file twice for one customer, and more than the most a customer can have', async () => {
    const { org, user } = await seedTenant(t);
    const customer = await seedCustomer(t, org.id, { customer_name: 'Amina Wanjiru' });
    const first = ZCustomerDocumentReplySchema.parse((await add(user, customer.id, JPEG, 'front.jpg').expect(201)).body).data;
    const again = await add(user, customer.id, JPEG, 'front-again.jpg', { kind: 'photo' }).expect(409);
    expect(again.body.message).toBe(`This file was already added for Amina Wanjiru (document ${first.document_id}, ID card (front))`);
    // The same file for another customer is theirs to keep.
    const sibling = await seedCustomer(t, org.id);
    await add(user, sibling.id, JPEG, 'front.jpg').expect(201);

    const content = png();
    for (let i = 1; i < DOCUMENTS_PER_CUSTOMER_MAX; i++) {
      const bytes = Buffer.concat([content, Buffer.from([i])]);
      await t.db.pool.query(
        `INSERT INTO customer_documents (organization_id, customer_id, kind, file_name, content_type, size_bytes, sha256, content)
         VALUES ($1, $2, 'other', $3, 'image/png', $4, encode(sha256($5), 'hex'), $5)`,
        [org.id, customer.id, `page-${i}.png`, bytes.length, bytes],
      );
    }
    expect(ZCustomerDocumentsReplySchema.parse((await list(user, customer.id).expect(200)).body).remaining).toBe(0);
    // Two at once for the last place: the customer's row is locked, so neither gets a 31st.
    const [a, b] = await Promise.all([add(user, customer.id, png(), 'a.png', { kind: 'other' }), add(user, customer.id, png(), 'b.png', { kind: 'other' })]);
    expect([a.status, b.status]).toEqual([409, 409]);
    expect(a.body.message).toBe(`Amina Wanjiru already has ${DOCUMENTS_PER_CUSTOMER_MAX} documents, the most a customer can have: delete one to add another`);
    await t.http.delete(`/payg/customers/${customer.id}/documents/${first.document_id}`).set(user.auth).expect(200);
    const [c, d] = await Promise.all([add(user, customer.id, png(), 'c.png', { kind: 'other' }), add(user, customer.id, png(), 'd.png', { kind: 'other' })]);
    expect([c.status, d.status].sort()).toEqual([201, 409]);
    expect(await t.db.pool.query(`SELECT count(*)::int AS n FROM customer_documents WHERE organization_id = $1 AND customer_id = $2`, [org.id, customer.id])).toMatchObject({
      rows: [{ n: DOCUMENTS_PER_CUSTOMER_MAX }],
    });
  });

  it('lets owners and admins delete a document, not staff; the deletion is in the activity log', async () => {
    const { org, user: owner } = await seedTenant(t);
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
    const customer = await seedCustomer(t, org.id, { customer_name: 'Baraka Otieno' });
    const doc = ZCustomerDocumentReplySchema.parse((await add(owner, customer.id, pdf(), 'agreement.pdf', { kind: 'agreement' }).expect(201)).body).data;

    await t.http.delete(`/payg/customers/${customer.id}/documents/${doc.document_id}`).set(staff.auth).expect(403);
    expect(await stored(org.id)).toBe(1);
    const done = await t.http.delete(`/payg/customers/${customer.id}/documents/${doc.document_id}`).set(admin.auth).expect(200);
    expect(done.body.message).toBe('Signed agreement deleted');
    await fileOf(owner, customer.id, doc.document_id).expect(404);
    await t.http.delete(`/payg/customers/${customer.id}/documents/${doc.document_id}`).set(admin.auth).expect(404, /Document not found/);
    expect(await stored(org.id)).toBe(0);
    const entry = await t.db.platform.auditLog.findFirst({ where: { organization_id: org.id, action: 'customer.document_deleted' } });
    expect(entry).toMatchObject({
      actor_username: admin.username,
      entity_id: String(customer.id),
      description: `${admin.username} deleted Signed agreement (agreement.pdf) of customer Baraka Otieno`,
    });
  });

  it("another organization's users see, add and delete none of them", async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    const customer = await seedCustomer(t, a.org.id);
    const doc = ZCustomerDocumentReplySchema.parse((await add(a.user, customer.id, JPEG, 'front.jpg').expect(201)).body).data;
    const before = await t.db.pool.query(`SELECT document_id, sha256 FROM customer_documents WHERE organization_id = $1`, [a.org.id]);

    await list(b.user, customer.id).expect(404, /Customer not found/);
    await add(b.user, customer.id, png(), 'x.png').expect(404, /Customer not found/);
    const shown = await fileOf(b.user, customer.id, doc.document_id).expect(404);
    expect(Buffer.from(shown.body as Buffer).includes(JPEG.subarray(0, 64))).toBe(false);
    await t.http.delete(`/payg/customers/${customer.id}/documents/${doc.document_id}`).set(b.user.auth).expect(404);

    // B's customer of the same id space, with B's own document: A's id on B's path is still not found.
    const theirs = await seedCustomer(t, b.org.id);
    await fileOf(b.user, theirs.id, doc.document_id).expect(404);
    expect((await t.db.pool.query(`SELECT document_id, sha256 FROM customer_documents WHERE organization_id = $1`, [a.org.id])).rows).toEqual(before.rows);
    expect(await stored(b.org.id)).toBe(0);
  });

  it("go with the customer: in the copy of their personal data, deleted when it is erased and when the customer is deleted", async () => {
    const { org, user } = await seedTenant(t);
    const customer = await seedCustomer(t, org.id, { customer_name: 'Eshe Mohamed' });
    const doc = ZCustomerDocumentReplySchema.parse((await add(user, customer.id, JPEG, 'eshe-id.jpg', { kind: 'id_front', note: 'Front' }).expect(201)).body).data;
    await add(user, customer.id, pdf(), 'agreement.pdf', { kind: 'agreement' }).expect(201);

    const copy = ZPersonalDataExportSchema.parse((await t.http.get(`/payg/customers/${customer.id}/personal-data`).set(user.auth).expect(200)).body);
    expect(copy.documents).toEqual([
      { document_id: doc.document_id, file: null, kind: 'id_front', file_name: 'eshe-id.jpg', content_type: 'image/jpeg', size_bytes: JPEG.length, note: 'Front', uploaded_by: user.username, uploaded_at: doc.uploaded_at },
      expect.objectContaining({ file: null, kind: 'agreement', file_name: 'agreement.pdf', content_type: 'application/pdf' }),
    ]);

    // The copy to hand over as one file: the data, and each document's file where the data says it is.
    const res = await t.http.get(`/payg/customers/${customer.id}/personal-data`).query({ format: 'zip' }).set(user.auth).buffer(true).parse(binaryParser).expect(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="customer-${customer.id}-personal-data.zip"`);
    expect(res.headers['cache-control']).toBe('no-store');
    const entries = await unzip(res.body as Buffer);
    const data = ZPersonalDataExportSchema.parse(JSON.parse(entries.get('personal-data.json')!.data.toString('utf8')));
    expect(data.customer.customer_name).toBe('Eshe Mohamed');
    const agreementId = copy.documents[1].document_id;
    expect(data.documents.map((d) => d.file)).toEqual([`documents/${doc.document_id}-id_front-eshe-id.jpg`, `documents/${agreementId}-agreement-agreement.pdf`]);
    expect([...entries.keys()]).toEqual(['README.txt', 'personal-data.json', ...data.documents.map((d) => d.file)]);
    expect(entries.get(data.documents[0].file!)!.data).toEqual(JPEG);
    expect(entries.get(data.documents[1].file!)!.data.subarray(0, 5).toString()).toBe('%PDF-');
    expect(entries.get('README.txt')!.data.toString()).toContain('the files of the 2 documents kept');
    const audited = await t.db.platform.auditLog.findFirst({ where: { organization_id: org.id, action: 'customer.data_exported' }, orderBy: { id: 'desc' } });
    expect(audited?.description).toBe(`${user.username} downloaded the personal data held about customer Eshe Mohamed, with the files of 2 documents`);
    expect((await t.http.get(`/payg/customers/${customer.id}/personal-data`).query({ format: 'pdf' }).set(user.auth).expect(400)).body.message).toBe(
      'format: must be one of json, zip',
    );
    const other = await seedTenant(t);
    await t.http.get(`/payg/customers/${customer.id}/personal-data`).query({ format: 'zip' }).set(other.user.auth).expect(404);
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await t.http.get(`/payg/customers/${customer.id}/personal-data`).query({ format: 'zip' }).set(staff.auth).expect(403);

    const erased = ZEraseCustomerReplySchema.parse(
      (await t.http.post(`/payg/customers/${customer.id}/erase`).set(user.auth).send({ reason: 'The customer asked in writing' }).expect(200)).body,
    );
    expect(erased.erased.documents).toBe(2);
    expect(await stored(org.id)).toBe(0);
    expect(ZCustomerDocumentsReplySchema.parse((await list(user, customer.id).expect(200)).body).data).toEqual([]);
    const refused = await add(user, customer.id, png(), 'again.png').expect(409);
    expect(refused.body.message).toBe("This customer's personal data was erased: no documents can be added");
    // What the activity log said of the document's file name and the customer is gone with the rest.
    const entry = await t.db.platform.auditLog.findFirst({ where: { organization_id: org.id, action: 'customer.document_added' } });
    expect(entry?.description).not.toContain('Eshe Mohamed');
    expect(entry?.metadata).toBeNull();

    const another = await seedCustomer(t, org.id);
    await add(user, another.id, png(), 'x.png').expect(201);
    await t.http.delete(`/payg/customers/${another.id}`).set(user.auth).expect(200);
    expect(await stored(org.id)).toBe(0);
  });

  it("reports, by sales agent, how many of the devices given have their customer's file complete", async () => {
    const { org, user } = await seedTenant(t);
    const kinds = { id_front: JPEG, id_back: png(), photo: webp(), agreement: pdf() };
    async function given(agent: string | null, docs: (keyof typeof kinds)[], status = 'active') {
      const { customer } = await seedCustomerWithDevice(t, org.id);
      await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org.id, id: customer.id } }, data: { agent_id: agent, status } });
      for (const kind of docs) {
        // Each customer's own copy: the same bytes twice for one customer are refused, not for two.
        await add(user, customer.id, Buffer.concat([kinds[kind], Buffer.from(String(customer.id))]), `${kind}.bin`, { kind }).expect(201);
      }
      return customer;
    }
    await given('AGT-1', ['id_front', 'id_back', 'agreement']);
    await given('AGT-1', ['id_front', 'photo']);
    await given(' AGT-1 ', []);
    await given('AGT-2', ['id_front', 'id_back']);
    await given(null, ['id_front', 'id_back', 'agreement', 'photo']);
    // Erased: no file can be added, so none is asked for.
    await given('AGT-2', [], 'erased');

    const report = async (body: Record<string, unknown> = {}) =>
      ZReportSchema.parse((await t.http.post('/payg/reports/page').set(user.auth).send({ report: 'documents', ...body }).expect(200)).body);
    const r = await report();
    expect(r.report).toBe('documents');
    expect(r.columns.map((c) => c.label)).toEqual(['Agent', 'Devices Given', 'ID Card (Both Sides)', 'Photo', 'Signed Agreement', 'Complete', 'Complete %', 'Missing Documents']);
    // The least complete agent first.
    expect(r.rows).toEqual([
      { agent: 'AGT-2', devices_given: 1, id_card: 1, photo: 0, agreement: 0, complete: 0, complete_share: 0, missing: 1 },
      { agent: 'AGT-1', devices_given: 3, id_card: 1, photo: 1, agreement: 1, complete: 1, complete_share: 33.3, missing: 2 },
      { agent: '(no agent)', devices_given: 1, id_card: 1, photo: 1, agreement: 1, complete: 1, complete_share: 100, missing: 0 },
    ]);
    expect(r.totals).toEqual({ rows: 3, devices_given: 5, id_card: 3, photo: 2, agreement: 2, complete: 2, complete_share: 40, missing: 3 });

    // A period without devices given; the CSV; another organization.
    const none = await report({ from: '2020-01-01', to: '2020-12-31' });
    expect(none.rows).toEqual([]);
    expect(none.totals).toMatchObject({ rows: 0, devices_given: 0, complete_share: null, missing: 0 });
    const csv = await t.http.post('/payg/reports/page').set(user.auth).send({ report: 'documents', format: 'csv' }).expect(200);
    expect(csv.text.split(/\r?\n/)[0]).toBe('Agent,Devices Given,ID Card (Both Sides),Photo,Signed Agreement,Complete,Complete %,Missing Documents');
    expect(csv.text).toContain('AGT-1,3,1,1,1,1,33.3,2');
    const other = await seedTenant(t);
    const theirs = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(other.user.auth).send({ report: 'documents' }).expect(200)).body);
    expect(theirs.rows).toEqual([]);
  });

  it('keeps the documents of a customer who has a device like any other', async () => {
    const { org, user } = await seedTenant(t);
    const { customer } = await seedCustomerWithDevice(t, org.id);
    await add(user, customer.id, JPEG, 'front.jpg').expect(201);
    // A customer with a device is not deleted, and their documents stay.
    await t.http.delete(`/payg/customers/${customer.id}`).set(user.auth).expect(409);
    expect(await stored(org.id)).toBe(1);
  });
});
