import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZCsvImportReportSchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomer, seedTenant } from './support/factories.js';
import { csvText, parseCsvReply } from './support/catalog.js';

const HEADER = 'customer_name,id_number,phone_contact,email,county,gender,date_of_birth,postal_address';

describe('customer CSV import and export', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const upload = (auth: { Authorization: string }, body: string | Buffer, filename = 'customers.csv', field = 'csv_file') =>
    t.http.post('/payg/upload-csv').set(auth).attach(field, Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'), filename);

  const customers = (orgId: string) =>
    t.db.db.customer.findMany({ where: { organization_id: orgId }, orderBy: { id: 'asc' } });

  describe('POST /upload-csv', () => {
    it('imports a file with a BOM, CRLF line ends, quoted commas, quotes and line breaks and non-ASCII names', async () => {
      const { user, org } = await seedTenant(t);
      const file =
        '\uFEFF' +
        csvText(
          [
            'Customer Name,ID Number,Phone Contact,Email,County,Gender,Date Of Birth,Postal Address',
            'Wanjikũ Njoroge,1001,0712000001,wanjiku@example.com,Nyeri,female,1988-01-31,"P.O. Box 1, Nyeri"',
            '"Zoë ""Zee"" Atieno",1002,+254712000002,,Kisumu,,,"Line one',
            'line two"',
            '  Abdi  ,1003,0712 000 003,,"Garissa",Male,31/12/1970,',
          ],
          '\r\n',
        );
      const res = await upload(user.auth, file).expect(200);
      const report = ZCsvImportReportSchema.parse(res.body);
      expect(report).toMatchObject({ rows: 3, imported: 3, skipped: 0, duplicates: 0, errors: [], more_errors: 0 });
      const rows = await customers(org.id);
      expect(rows.map((c) => c.customer_name)).toEqual(['Wanjikũ Njoroge', 'Zoë "Zee" Atieno', 'Abdi']);
      expect(rows[0]).toMatchObject({ postal_address: 'P.O. Box 1, Nyeri', gender: 'Female', phone_normalized: '254712000001' });
      expect(rows[1]).toMatchObject({ postal_address: 'Line one\r\nline two', email: null, gender: null, date_of_birth: null });
      expect(rows[2].date_of_birth?.toISOString().slice(0, 10)).toBe('1970-12-31');
      expect(rows[2].phone_normalized).toBe('254712000003');

      // The import is recorded as a job and in the audit log.
      const job = await t.db.db.importJob.findFirst({ where: { organization_id: org.id, id: report.job_id } });
      expect(job).toMatchObject({ kind: 'customers', status: 'completed', imported: 3, skipped: 0, filename: 'customers.csv' });
      const audit = await t.db.platform.auditLog.findFirst({ where: { organization_id: org.id, action: 'customers.imported' } });
      expect(audit?.description).toContain('Imported 3 customers');
    });

    it('imports the valid rows and reports each invalid one with its row number and field', async () => {
      const { user, org } = await seedTenant(t);
      const file = csvText([
        HEADER,
        'Good One,2001,0712000011,,,,,',
        ',2002,0712000012,,,,,',
        'Bad Email,2003,0712000013,not-an-email,,,,',
        'Bad Gender,2004,0712000014,,,Robot,,',
        'Good Two,2005,0712000015,,,,not a date,',
        'Too many,2006,0712000016,,,,,,unexpected,values',
      ]);
      const report = ZCsvImportReportSchema.parse((await upload(user.auth, file).expect(200)).body);
      expect(report).toMatchObject({ rows: 6, imported: 2, skipped: 4, duplicates: 0, more_errors: 0 });
      expect(report.errors).toEqual([
        { row: 2, field: 'customer_name', message: 'is required' },
        { row: 3, field: 'email', message: 'must be a valid email address' },
        { row: 4, field: 'gender', message: 'must be one of Male, Female, Other' },
        { row: 6, field: '', message: expect.stringContaining('has 10 values but the header has 8 columns') },
      ]);
      expect((await customers(org.id)).map((c) => c.id_number)).toEqual(['2001', '2005']);
    });

    it('skips ID numbers already registered or repeated in the file, so a second upload imports nothing', async () => {
      const { user, org } = await seedTenant(t);
      await seedCustomer(t, org.id, { id_number: '3001', customer_name: 'Already There' });
      const file = csvText([HEADER, 'New A,3001,0712000021,,,,,', 'New B,3002,0712000022,,,,,', 'New B again,3002,0712000023,,,,,', 'New C,3003,0712000024,,,,,']);
      const first = ZCsvImportReportSchema.parse((await upload(user.auth, file).expect(200)).body);
      expect(first).toMatchObject({ rows: 4, imported: 2, skipped: 2, duplicates: 2, errors: [] });
      const second = ZCsvImportReportSchema.parse((await upload(user.auth, file).expect(200)).body);
      expect(second).toMatchObject({ rows: 4, imported: 0, skipped: 4, duplicates: 4 });
      const rows = await customers(org.id);
      expect(rows.map((c) => c.customer_name)).toEqual(['Already There', 'New B', 'New C']);
    });

    it("imports into the caller's organization only, whatever another organization holds", async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      await seedCustomer(t, a.org.id, { id_number: '4001', customer_name: 'A customer' });
      const report = ZCsvImportReportSchema.parse((await upload(b.user.auth, csvText([HEADER, 'B customer,4001,0712000031,,,,,'])).expect(200)).body);
      expect(report.imported).toBe(1);
      expect((await customers(a.org.id)).map((c) => c.customer_name)).toEqual(['A customer']);
      expect((await customers(b.org.id)).map((c) => c.customer_name)).toEqual(['B customer']);
    });

    it.each([
      ['a missing required column', csvText(['customer_name,phone_contact', 'No Id,0712000041']), 'csv_file: missing required column id_number'],
      ['no header of customer fields (a JSON file)', '{"customers": [{"name": "x"}]}\n', 'csv_file: missing required columns customer_name, id_number, phone_contact'],
      ['an empty file', '', 'csv_file: the file is empty'],
      ['only blank lines', '\n\n  \n', 'csv_file: the file is empty'],
      ['a header without rows', csvText([HEADER]), 'csv_file: the file has a header but no data rows'],
    ])('refuses %s with a 400 and imports nothing', async (_what, body, message) => {
      const { user, org } = await seedTenant(t);
      const res = await upload(user.auth, body).expect(400);
      expect(res.body.message).toContain(message);
      expect(await t.db.db.customer.count({ where: { organization_id: org.id } })).toBe(0);
      expect(await t.db.db.importJob.count({ where: { organization_id: org.id } })).toBe(0);
    });

    it('refuses binary files (an image, an .xlsx workbook) as not CSV', async () => {
      const { user } = await seedTenant(t);
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
      expect((await upload(user.auth, png, 'photo.png').expect(400)).body.message).toContain('csv_file: is not a CSV file');
      const xlsx = Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.from('customer_name,id_number,phone_contact')]);
      expect((await upload(user.auth, xlsx, 'customers.xlsx').expect(400)).body.message).toContain('csv_file: is not a CSV file');
    });

    it('asks for the file in the csv_file field', async () => {
      const { user } = await seedTenant(t);
      const none = await t.http.post('/payg/upload-csv').set(user.auth).send({}).expect(400);
      expect(none.body.message).toMatch(/^csv_file: is required/);
      const wrong = await upload(user.auth, csvText([HEADER, 'X,1,0712000000,,,,,']), 'c.csv', 'file').expect(400);
      expect(wrong.body.message).toContain('csv_file: send the file in the multipart field "csv_file"');
    });

    it('reports rows that cannot be read (a quote never closed) and imports the others', async () => {
      const { user, org } = await seedTenant(t);
      const file = csvText(['customer_name,id_number,phone_contact', 'Ok One,5001,0712000051', 'Mary "M" Wairimu,5002,0712000052', '"Broken,5003,0712000053', 'Lost,5004,0712000054']);
      const report = ZCsvImportReportSchema.parse((await upload(user.auth, file).expect(200)).body);
      expect(report.imported).toBe(2);
      expect(report.errors).toEqual([{ row: 3, field: '', message: expect.stringContaining('could not be read as CSV: Quote Not Closed') }]);
      expect((await customers(org.id)).map((c) => c.customer_name)).toEqual(['Ok One', 'Mary "M" Wairimu']);
    });

    it('reads semicolon-separated files saved by Excel in Windows-1252', async () => {
      const { user, org } = await seedTenant(t);
      const file = Buffer.from('customer_name;id_number;phone_contact;county\r\nZo\xeb K\xe4mau;6001;0712000061;Nairobi\r\n', 'latin1');
      const report = ZCsvImportReportSchema.parse((await upload(user.auth, file).expect(200)).body);
      expect(report.imported).toBe(1);
      expect((await customers(org.id))[0]).toMatchObject({ customer_name: 'Zoë Kämau', county: 'Nairobi' });
    });

    it('reads Windows-1252 quotes, dashes and the euro sign, also when the first of them is past the first 64 KB', async () => {
      const { user, org } = await seedTenant(t);
      const lines = ['customer_name,id_number,phone_contact,county'];
      for (let i = 0; i < 2000; i++) lines.push(`Plain Name ${i},W${i},07120${String(i).padStart(5, '0')},Nairobi`);
      const head = Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1');
      expect(head.length).toBeGreaterThan(64 * 1024);
      // “Quote” – € and Murang’a, as Excel on Windows writes them.
      const tail = Buffer.from([...Buffer.from('Ren\xe9e \x93Quote\x94 \x96 \x80,W9999,0712999999,Murang\x92a\r\n', 'latin1')]);
      const report = ZCsvImportReportSchema.parse((await upload(user.auth, Buffer.concat([head, tail])).expect(200)).body);
      expect(report).toMatchObject({ rows: 2001, imported: 2001, skipped: 0 });
      const last = (await customers(org.id)).find((c) => c.id_number === 'W9999');
      expect(last).toMatchObject({ customer_name: 'Renée “Quote” – €', county: 'Murang’a' });
    });

    it('lists at most 1,000 errors and says how many more there were', async () => {
      const { user } = await seedTenant(t);
      const lines = ['customer_name,id_number,phone_contact'];
      for (let i = 0; i < 1200; i++) lines.push(`,E${i},0712000000`);
      const report = ZCsvImportReportSchema.parse((await upload(user.auth, csvText(lines)).expect(200)).body);
      expect(report).toMatchObject({ rows: 1200, imported: 0, skipped: 1200, more_errors: 200 });
      expect(report.errors).toHaveLength(1000);
      expect(report.errors[999].row).toBe(1000);
    });

    it('imports 10,000 rows in batches and exports them all back', async () => {
      const { user, org } = await seedTenant(t);
      const lines = [HEADER];
      for (let i = 0; i < 10_000; i++) {
        lines.push(`Bulk Customer ${i},BULK-${i},07${String(10_000_000 + i).slice(-8)},c${i}@example.com,County ${i % 47},,,"Box ${i}, Town"`);
      }
      const started = Date.now();
      const report = ZCsvImportReportSchema.parse((await upload(user.auth, csvText(lines)).expect(200)).body);
      console.log(`customer import: 10,000 rows in ${Date.now() - started} ms (server: ${report.duration_ms} ms)`);
      expect(report).toMatchObject({ rows: 10_000, imported: 10_000, skipped: 0, errors: [] });
      expect(await t.db.db.customer.count({ where: { organization_id: org.id } })).toBe(10_000);

      const exportStarted = Date.now();
      const res = await t.http.get('/payg/export-customers-csv').set(user.auth).buffer(true).expect(200);
      console.log(`customer export: 10,000 rows in ${Date.now() - exportStarted} ms`);
      const rows = parseCsvReply(res.text);
      expect(rows).toHaveLength(10_001);
      expect(new Set(rows.slice(1).map((r) => r[2])).size).toBe(10_000);
    }, 120_000);
  });

  describe('GET /export-customers-csv', () => {
    it('sends every customer of the organization as a CSV attachment with a BOM and safe cells', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      await t.http
        .post('/payg/register-customer')
        .set(a.user.auth)
        .send({
          customer_name: 'Nyambura "Nana" Kariuki',
          id_number: '7001',
          phone_contact: '+254712000071',
          postal_address: 'P.O. Box 7,\nKiambu',
          occupation: '=HYPERLINK("http://evil.example","click")',
          employer_name: '@SUM(A1:A2)',
          village: 'Kaũ',
        })
        .expect(201);
      await seedCustomer(t, b.org.id, { customer_name: 'Only In B' });
      const res = await t.http.get('/payg/export-customers-csv').set(a.user.auth).buffer(true).expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="customers.csv"');
      expect(res.text.startsWith('\uFEFFcustomer_id,customer_name,id_number,phone_contact,email,')).toBe(true);
      expect(res.text).toContain('"Nyambura ""Nana"" Kariuki"');
      expect(res.text).toContain('"P.O. Box 7,\nKiambu"');
      expect(res.text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
      expect(res.text).toContain(",'@SUM(A1:A2),");
      expect(res.text).toContain(',+254712000071,');
      expect(res.text).not.toContain('Only In B');
      const rows = parseCsvReply(res.text);
      expect(rows).toHaveLength(2);
      const header = rows[0];
      const record = Object.fromEntries(header.map((h, i) => [h, rows[1][i]]));
      expect(record).toMatchObject({ customer_name: 'Nyambura "Nana" Kariuki', village: 'Kaũ', status: 'active', preferred_language: 'English' });
    });

    it('round-trips: what one organization exports, another imports unchanged', async () => {
      const a = await seedTenant(t);
      const c = await seedTenant(t);
      const people = [
        { customer_name: 'Émile Ndayishimiye', id_number: '8001', phone_contact: '+257 79 000 001', country: 'Burundi', gender: 'Male', date_of_birth: '1979-03-04', marital_status: 'Widowed', education_level: "Master's Degree", preferred_language: 'French', customer_type: 'business', status: 'suspended', agent_id: 'AG,1' },
        { customer_name: 'Halima, "the Baker"', id_number: '8002', phone_contact: '0712000082', email: 'halima@example.com', postal_address: 'Box 2\nMombasa', occupation: '-5 + cmd', employer_name: '+tea shop', ward: ' padded ' },
        { customer_name: 'Plain Person', id_number: '8003', phone_contact: '0712000083' },
      ];
      for (const p of people) await t.http.post('/payg/register-customer').set(a.user.auth).send(p).expect(201);
      const exportA = await t.http.get('/payg/export-customers-csv').set(a.user.auth).buffer(true).expect(200);
      const report = ZCsvImportReportSchema.parse((await upload(c.user.auth, exportA.text, 'customers.csv').expect(200)).body);
      expect(report).toMatchObject({ rows: 3, imported: 3, errors: [] });
      const exportC = await t.http.get('/payg/export-customers-csv').set(c.user.auth).buffer(true).expect(200);
      const strip = (text: string) => {
        const [header, ...rows] = parseCsvReply(text);
        const drop = new Set([header.indexOf('customer_id'), header.indexOf('created_at')]);
        return rows.map((r) => r.filter((_, i) => !drop.has(i)));
      };
      expect(strip(exportC.text)).toEqual(strip(exportA.text));
      const rows = await customers(c.org.id);
      expect(rows.find((r) => r.id_number === '8002')).toMatchObject({ occupation: '-5 + cmd', employer_name: '+tea shop', postal_address: 'Box 2\nMombasa' });
    });

    it('sends just the header for an organization without customers', async () => {
      const { user } = await seedTenant(t);
      const res = await t.http.get('/payg/export-customers-csv').set(user.auth).buffer(true).expect(200);
      expect(parseCsvReply(res.text)).toHaveLength(1);
    });
  });
});

describe('customer CSV upload limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { MAX_UPLOAD_MB: '1' } });
  });
  afterAll(() => t.close());

  it('refuses a file above MAX_UPLOAD_MB with a clear 413 and imports nothing', async () => {
    const { user, org } = await seedTenant(t);
    const lines = ['customer_name,id_number,phone_contact,postal_address'];
    for (let i = 0, size = 0; size < 1.2 * 1024 * 1024; i++) {
      lines.push(`Big ${i},BIG-${i},0712000000,${'x'.repeat(100)}`);
      size += lines[lines.length - 1].length + 1;
    }
    const res = await t.http.post('/payg/upload-csv').set(user.auth).attach('csv_file', Buffer.from(csvText(lines)), 'big.csv');
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('csv_file: the file is larger than the upload limit of 1 MB; split it into smaller files');
    expect(await t.db.db.customer.count({ where: { organization_id: org.id } })).toBe(0);
  });
});
