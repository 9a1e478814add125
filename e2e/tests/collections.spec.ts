import { readFileSync } from 'node:fs';
import type { APIRequestContext, Locator } from '@playwright/test';
import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createCustomer, createItem, createTemplate, onboard, unique } from './ops/api.js';

interface Summary {
  data: { open_accounts: number; out_of_credit: number; buckets: { bucket: string; devices: number }[]; today: string };
}

interface AgentReport {
  rows: { agent: string; out_of_credit: number }[];
}

interface CustomerPage {
  data: { customer_id: number; agent_id: string | null }[];
  pagination: { total: number };
}

/** Every customer's sales agent as the Agent report names it (trimmed; '(no agent)' without one), by customer id. */
async function agentsByCustomer(request: APIRequestContext, token: string): Promise<Map<number, string>> {
  const agents = new Map<number, string>();
  for (let offset = 0; ; offset += 100) {
    const page = await apiCall<CustomerPage>(request, token, 'GET', `/registered-customers?limit=100&offset=${offset}`);
    for (const c of page.data) agents.set(c.customer_id, c.agent_id?.trim() || '(no agent)');
    if (page.data.length < 100 || offset + 100 >= page.pagination.total) return agents;
  }
}

interface PromisesSummary {
  data: { today: string; from: string; counts: Record<'due' | 'broken' | 'upcoming' | 'kept' | 'paid_late', number>; kept_rate: number | null };
}

/** How many pixels a table is wider than the box it scrolls in (0 or less: it fits, nothing to scroll sideways for). */
const overflowOf = (table: Locator) =>
  table.evaluate((el) => {
    const box = el.closest('.mantine-ScrollArea-root');
    return box ? Math.round(el.getBoundingClientRect().width - box.clientWidth) : Number.NaN;
  });

/** A business day (YYYY-MM-DD) `days` later. */
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

test.describe('collections', () => {
  test('the devices out of credit, by band: counts, filter kept in the URL, links, CSV export, phone width', async ({ page, request }) => {
    // A customer given a device on a plan who has not paid yet: out of credit since today, in the 0–7 days band.
    const owner = await apiToken(request);
    const name = unique('Collections Wafula');
    const serial = unique('COL');
    const customer = await createCustomer(request, owner, name, '0701 234 567');
    await createItem(request, owner, serial, 'Solar Home 50W');
    const template = await createTemplate(request, owner, unique('Collections plan'));
    await onboard(request, owner, customer.customer_id, serial, template.template_id);
    const summary = await apiCall<Summary>(request, owner, 'GET', '/collections/summary');
    const count = (bucket: string) => summary.data.buckets.find((b) => b.bucket === bucket)?.devices ?? 0;
    // The demo's customers got their devices 60 days ago: none can be without credit for over 90.
    expect(count('over-90')).toBe(0);
    expect(count('0-7')).toBeGreaterThanOrEqual(1);

    await signIn(page, undefined, '/collections');
    await expect(page.getByRole('heading', { name: 'Collections', level: 2 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Collections' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    const all = page.getByRole('radio', { name: `All: ${summary.data.out_of_credit} devices` });
    await expect(all).toHaveAttribute('aria-checked', 'true');
    const share = ((summary.data.out_of_credit / summary.data.open_accounts) * 100).toFixed(1);
    await expect(all).toContainText(`${share}% of ${summary.data.open_accounts} open accounts`);
    await expect(page.getByRole('radio', { name: /^0–7 days: \d+ devices?$/ })).toBeVisible();
    await expect(page.getByRole('radio', { name: 'Over 90 days: 0 devices' })).toBeVisible();

    const table = page.getByRole('table', { name: 'Collections' });
    // The newest out of credit come first: this device ran out today.
    const row = table.getByRole('row', { name: new RegExp(name) });
    await expect(row).toBeVisible();
    await expect(row.getByText('0 days')).toBeVisible();
    // \s: the cell keeps words together with non-breaking spaces, which Playwright's text match leaves as they are.
    await expect(row.getByText(/^Never\spaid\s·\sgiven\s/)).toBeVisible();
    await expect(row.getByText('No payments')).toBeVisible();
    await expect(row.getByText('KES 50.00 / day')).toBeVisible();
    await expect(row.getByRole('link', { name: '0701 234 567' })).toHaveAttribute('href', 'tel:0701234567');
    await expect(row.getByRole('link', { name: serial })).toHaveAttribute('href', `/device-activity/${serial}`);
    // The demo has devices out of credit for weeks, paid for some days and then not.
    await expect(table.getByText(/^Since\s/).first()).toBeVisible();
    await screenshotBothThemes(page, 'collections');
    // On a laptop (1366 px) the whole table fits: no sideways scrolling to reach Remaining.
    expect(await overflowOf(table)).toBeLessThanOrEqual(0);

    // A band filters the table and stays in the URL across a reload.
    await page.getByRole('radio', { name: /^0–7 days/ }).click();
    await expect(page).toHaveURL(/\/collections\?bucket=0-7$/);
    await expect(row).toBeVisible();
    await page.reload();
    await expect(page.getByRole('radio', { name: /^0–7 days/ })).toHaveAttribute('aria-checked', 'true');
    await expect(row).toBeVisible();
    // Nothing of 8 days or more is left in the band.
    await expect(table.getByText(/\b([89]|[1-9]\d+) days\b/)).toHaveCount(0);

    // The export is that band, every page, as CSV.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^collections.*\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv).toContain(name);
    expect(csv).toContain(serial);

    await page.getByRole('radio', { name: /^Over 90 days/ }).click();
    await expect(page).toHaveURL(/\/collections\?bucket=over-90$/);
    await expect(page.getByText('No devices in this band.')).toBeVisible();

    // On a phone: the cards two by two, whom to call in view, and the empty state under the table, not off screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByText('No devices in this band.')).toBeInViewport();
    await screenshotBothThemes(page, 'collections-phone-empty');
    await page.getByRole('radio', { name: /^All/ }).click();
    await expect(page).toHaveURL(/\/collections$/);
    await row.scrollIntoViewIfNeeded();
    await expect(row.getByRole('link', { name })).toBeInViewport();
    await expect(row.getByRole('link', { name: '0701 234 567' })).toBeInViewport();
    await screenshotBothThemes(page, 'collections-phone');
    await page.setViewportSize({ width: 1366, height: 850 });

    // The customer's name opens their payment details.
    await row.getByRole('link', { name }).click();
    await expect(page).toHaveURL(new RegExp(`/customer-payment-details/${customer.customer_id}$`));
  });

  test('a promise to pay logged from the first row: the Last Contact column, the history, desktop and phone', async ({ page, request }) => {
    // A device given out just now is the newest out of credit: the first row.
    const owner = await apiToken(request);
    const name = unique('Promise Njeri');
    const serial = unique('PRM');
    const customer = await createCustomer(request, owner, name, '0702 111 222');
    const item = await createItem(request, owner, serial, 'Solar Home 80W');
    const template = await createTemplate(request, owner, unique('Promise plan'));
    await onboard(request, owner, customer.customer_id, serial, template.template_id);
    // A first call, through the API: nobody answered.
    await apiCall(request, owner, 'POST', `/collections/${item.item_id}/contacts`, { outcome: 'no_answer', note: 'Phone switched off' });

    await signIn(page, undefined, '/collections');
    const table = page.getByRole('table', { name: 'Collections' });
    const row = table.getByRole('row').nth(1);
    await expect(row).toContainText(name);
    const lastContact = row.getByRole('cell').nth(5);
    await expect(table.getByRole('columnheader').nth(5)).toHaveText('Last Contact');
    await expect(lastContact.getByText('No answer')).toBeVisible();
    await expect(lastContact.getByText(/ · demo$/)).toBeVisible();

    // Three days ahead, on the browser's calendar, and as the page writes that day.
    const { promised, promisedText } = await page.evaluate(() => {
      const d = new Date();
      d.setDate(d.getDate() + 3);
      const pad = (n: number) => String(n).padStart(2, '0');
      return {
        promised: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
        promisedText: new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(d),
      };
    });

    await row.getByRole('button', { name: `Log Contact for ${name} · ${serial}` }).click();
    const dialog = page.getByRole('dialog', { name: `Log Contact — ${name} · ${serial}` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('list', { name: 'Previous contacts' }).getByRole('listitem')).toHaveCount(1);
    const date = dialog.getByRole('textbox', { name: 'Promised Payment Date' });
    await expect(date).toHaveCount(0);

    // A promise without its day is refused before anything is sent.
    await dialog.getByRole('combobox', { name: 'Outcome' }).click();
    await page.getByRole('option', { name: 'Promised to pay' }).click();
    await expect(date).toBeVisible();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Promised Payment Date is required when the customer promised to pay')).toBeVisible();

    // Typed, not pressed Enter on: Enter in a field submits the form.
    await date.fill(promised);
    await dialog.getByRole('textbox', { name: 'Note' }).fill('Pays after market day; call again Friday morning.');
    await expect(date).toHaveValue(promised);
    await expect(dialog.getByText('Promised Payment Date is required', { exact: false })).toHaveCount(0);
    await screenshotBothThemes(page, 'collections-log-contact', { fullPage: false });
    await dialog.getByRole('button', { name: 'Save' }).click();

    await expect(page.getByText('Contact logged')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(lastContact.getByText('Promised to pay')).toBeVisible();
    await expect(lastContact.getByText('No answer')).toHaveCount(0);
    await expect(lastContact.getByText(`Pays by ${promisedText}`)).toBeVisible();
    await expect(lastContact.getByText(/ · demo$/)).toBeVisible();
    await screenshotBothThemes(page, 'collections-last-contact');
    expect(await overflowOf(table)).toBeLessThanOrEqual(0);
    // The toast would cover the phone modal's title.
    await expect(page.getByText('Contact logged')).toBeHidden();

    // Opened again, on a phone: full screen, an empty form, and the promise at the top of the history.
    await page.setViewportSize({ width: 390, height: 844 });
    await row.getByRole('button', { name: `Log Contact for ${name} · ${serial}` }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('combobox', { name: 'Outcome' })).toHaveValue('');
    const history = dialog.getByRole('list', { name: 'Previous contacts' });
    await expect(history.getByRole('listitem')).toHaveCount(2);
    await expect(history.getByRole('listitem').nth(1).getByText('No answer')).toBeVisible();
    await expect(history.getByRole('listitem').nth(1).getByText('Phone switched off')).toBeVisible();
    const entry = history.getByRole('listitem').first();
    await expect(entry.getByText('Promised to pay')).toBeVisible();
    await expect(entry.getByText(`Promised for ${promisedText}`)).toBeVisible();
    await expect(entry.getByText('Pays after market day; call again Friday morning.')).toBeVisible();
    await expect(entry.getByText(/ · demo$/)).toBeVisible();
    const box = await dialog.boundingBox();
    expect(box?.width).toBe(390);
    await screenshotBothThemes(page, 'collections-log-contact-phone', { fullPage: false });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await page.setViewportSize({ width: 1366, height: 850 });

    // What the screen shows is what the API keeps.
    const stored = await apiCall<{ data: { outcome: string; promised_on: string | null; contacted_by: string | null }[] }>(
      request,
      owner,
      'GET',
      `/collections/${item.item_id}/contacts`,
    );
    expect(stored.data).toEqual([
      expect.objectContaining({ outcome: 'promised_to_pay', promised_on: promised, contacted_by: 'demo', note: 'Pays after market day; call again Friday morning.' }),
      expect.objectContaining({ outcome: 'no_answer', promised_on: null, contacted_by: 'demo' }),
    ]);
  });

  test('promises to pay: due today, kept, rescheduled from the row, by status in the URL, desktop and phone', async ({ page, request }) => {
    // Two customers given a device just now: one promises to pay today, the other tomorrow and pays at once.
    const owner = await apiToken(request);
    const template = await createTemplate(request, owner, unique('Promises plan'));
    const device = async (prefix: string, phone: string) => {
      const name = unique(prefix);
      const serial = unique('PTP');
      const customer = await createCustomer(request, owner, name, phone);
      const item = await createItem(request, owner, serial, 'Solar Home 80W');
      await onboard(request, owner, customer.customer_id, serial, template.template_id);
      return { name, serial, item_id: item.item_id };
    };
    const due = await device('Due Akinyi', '0703 555 111');
    const kept = await device('Kept Mutua', '0703 555 222');
    const { today } = (await apiCall<Summary>(request, owner, 'GET', '/collections/summary')).data;
    const promise = (promised_on: string, note: string) => ({ outcome: 'promised_to_pay', promised_on, note });
    await apiCall(request, owner, 'POST', `/collections/${due.item_id}/contacts`, promise(today, 'Sells the maize harvest this morning.'));
    await apiCall(request, owner, 'POST', `/collections/${kept.item_id}/contacts`, promise(addDays(today, 1), 'Pays tomorrow.'));
    // Paid now, as staff record cash (an M-Pesa confirmation carries its own, older, date and time).
    await apiCall(request, owner, 'POST', '/payments', { serial_number: kept.serial, amount: 600, payment_method: 'cash' });
    const summary = (await apiCall<PromisesSummary>(request, owner, 'GET', '/collections/promises/summary')).data;
    expect(summary.today).toBe(today);
    expect(summary.counts.due).toBeGreaterThanOrEqual(1);
    expect(summary.counts.kept).toBeGreaterThanOrEqual(1);
    // The demo's promise, three days ahead.
    expect(summary.counts.upcoming).toBeGreaterThanOrEqual(1);
    const total = Object.values(summary.counts).reduce((a, b) => a + b, 0);

    await signIn(page, undefined, '/collections');
    await expect(page.getByRole('tab', { name: 'Out of Credit' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('tab', { name: 'Promises to Pay' }).click();
    await expect(page).toHaveURL(/\/collections\?view=promises$/);
    await expect(page.getByRole('button', { name: 'Export CSV' })).toHaveCount(0);
    const all = page.getByRole('radio', { name: `All: ${total} ${total === 1 ? 'promise' : 'promises'}` });
    await expect(all).toHaveAttribute('aria-checked', 'true');
    await expect(all).toContainText(summary.kept_rate === null ? 'No promises settled yet' : `Kept rate: ${summary.kept_rate.toFixed(1)}% of settled promises`);
    const card = (label: string, n: number) => page.getByRole('radio', { name: `${label}: ${n} ${n === 1 ? 'promise' : 'promises'}` });
    await expect(card('Due today', summary.counts.due)).toBeVisible();
    await expect(card('Upcoming', summary.counts.upcoming)).toBeVisible();
    await expect(card('Kept', summary.counts.kept)).toBeVisible();
    await expect(page.getByText(/^Promises for days from /)).toBeVisible();

    const table = page.getByRole('table', { name: 'Promises to pay' });
    const dueRow = table.getByRole('row', { name: new RegExp(due.name) });
    await expect(dueRow.getByText('Due today')).toBeVisible();
    await expect(dueRow.getByText('Not paid yet')).toBeVisible();
    await expect(dueRow.getByText('0 days')).toBeVisible();
    await expect(dueRow.getByText(/^Logged .* · demo$/)).toBeVisible();
    await expect(dueRow.getByText('Sells the maize harvest this morning.')).toBeVisible();
    await expect(dueRow.getByRole('link', { name: '0703 555 111' })).toHaveAttribute('href', 'tel:0703555111');
    const keptRow = table.getByRole('row', { name: new RegExp(kept.name) });
    await expect(keptRow.getByText('Kept', { exact: true })).toBeVisible();
    await expect(keptRow.getByText('KES 600.00')).toBeVisible();
    await expect(keptRow.getByText('Has credit')).toBeVisible();
    await screenshotBothThemes(page, 'collections-promises');
    expect(await overflowOf(table)).toBeLessThanOrEqual(0);

    // A status filters the list and stays in the URL across a reload.
    await card('Due today', summary.counts.due).click();
    await expect(page).toHaveURL(/\/collections\?view=promises&status=due$/);
    await expect(keptRow).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('radio', { name: /^Due today/ })).toHaveAttribute('aria-checked', 'true');
    await expect(dueRow).toBeVisible();

    // Called again from the row: the customer now promises the day after tomorrow, so the promise is no longer due today.
    await dueRow.getByRole('button', { name: `Log Contact for ${due.name} · ${due.serial}` }).click();
    const dialog = page.getByRole('dialog', { name: `Log Contact — ${due.name} · ${due.serial}` });
    await expect(dialog.getByRole('list', { name: 'Previous contacts' }).getByRole('listitem')).toHaveCount(1);
    await dialog.getByRole('combobox', { name: 'Outcome' }).click();
    await page.getByRole('option', { name: 'Promised to pay' }).click();
    await dialog.getByRole('textbox', { name: 'Promised Payment Date' }).fill(addDays(today, 2));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Contact logged')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(dueRow).toHaveCount(0);
    await expect(page.getByRole('radio', { name: /^Due today/ })).toHaveAccessibleName(
      `Due today: ${summary.counts.due - 1} ${summary.counts.due - 1 === 1 ? 'promise' : 'promises'}`,
    );
    await page.getByRole('radio', { name: /^Upcoming/ }).click();
    await expect(page).toHaveURL(/\/collections\?view=promises&status=upcoming$/);
    await expect(dueRow.getByText('Upcoming')).toBeVisible();
    await expect(page.getByText('Contact logged')).toBeHidden();

    // On a phone: the cards two by two, whom to call in view.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('radio', { name: /^All/ }).click();
    await expect(page).toHaveURL(/\/collections\?view=promises$/);
    await dueRow.scrollIntoViewIfNeeded();
    await expect(dueRow.getByRole('link', { name: due.name })).toBeInViewport();
    await expect(dueRow.getByRole('link', { name: '0703 555 111' })).toBeInViewport();
    await screenshotBothThemes(page, 'collections-promises-phone');
    await page.setViewportSize({ width: 1366, height: 850 });

    // Back to Out of Credit: the view leaves the URL.
    await page.getByRole('tab', { name: 'Out of Credit' }).click();
    await expect(page).toHaveURL(/\/collections$/);
    await expect(page.getByRole('table', { name: 'Collections' })).toBeVisible();
  });

  test('staff see Collections too', async ({ page, request }) => {
    const owner = await apiToken(request);
    const staff = { username: unique('collector').toLowerCase(), password: 'collect-pass-1' };
    await apiCall(request, owner, 'POST', '/users', {
      username: staff.username,
      email: `${staff.username}@demo.kidogo.local`,
      password: staff.password,
      role: 'staff',
    });
    await signIn(page, staff, '/dashboard');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Collections' }).click();
    await expect(page).toHaveURL(/\/collections$/);
    await expect(page.getByRole('table', { name: 'Collections' }).getByRole('row').nth(1)).toBeVisible();
    await expect(page.getByText(/^Failed to load/)).toHaveCount(0);
  });
  test('an owner texts a whole band: previewed on the real customers, confirmed, queued to each device', async ({ page, request }) => {
    const owner = await apiToken(request);
    // A device given today on a plan and not paid: out of credit, in the 0–7 days band.
    const name = unique('Band Akinyi');
    const serial = unique('BND');
    const customer = await createCustomer(request, owner, name, '0722 000 123');
    await createItem(request, owner, serial, 'Solar Home 50W');
    const template = await createTemplate(request, owner, unique('Band plan'));
    await onboard(request, owner, customer.customer_id, serial, template.template_id);
    // An SMS provider to send with; the one before is put back afterwards.
    const before = await apiCall<{ provider: string; config: Record<string, unknown>; reply_language: string }>(request, owner, 'GET', '/settings/sms-provider');
    await apiCall(request, owner, 'PUT', '/settings/sms-provider', { provider: 'sms_webhook', config: { url: 'http://127.0.0.1:9/sms' } });
    try {
      await signIn(page, undefined, '/collections?bucket=0-7');
      await page.getByRole('button', { name: 'Text This Band' }).click();
      const dialog = page.getByRole('dialog', { name: 'Text the customers 0–7 days without credit' });
      const box = dialog.getByRole('textbox', { name: 'Message' });
      await box.fill('Habari , your {serial} is off. Pay {daily_price} a day to account {serial}.');
      await box.click();
      await box.press('Home');
      for (let i = 0; i < 'Habari '.length; i++) await box.press('ArrowRight');
      await dialog.getByRole('button', { name: '{name}' }).click();
      await expect(box).toHaveValue('Habari {name}, your {serial} is off. Pay {daily_price} a day to account {serial}.');
      const preview = dialog.getByRole('region', { name: 'Preview' });
      await expect(preview.getByText(/\d+ customers/)).toBeVisible();
      await dialog.getByRole('textbox', { name: 'Message' }).blur();
      await screenshotBothThemes(page, 'collections-text-band', { fullPage: false });
      const sendTo = dialog.getByRole('button', { name: /^Send to [\d,]+ Customers$/ });
      const recipients = Number((await sendTo.textContent())!.replace(/\D/g, ''));
      expect(recipients).toBeGreaterThanOrEqual(1);
      await sendTo.click();
      await dialog.getByRole('button', { name: `Yes, Send ${recipients.toLocaleString('en')} SMS` }).click();
      await expect(page.getByText(`${recipients.toLocaleString('en')} SMS queued to the customers 0–7 days without credit`)).toBeVisible();
      // The device's own text, filled in, as from the owner.
      const messages = await apiCall<{ data: { Outgoing: string | null; sent_by: string | null }[] }>(
        request,
        owner,
        'GET',
        `/fetch_messages?search=${encodeURIComponent(serial)}`,
      );
      const first = name.split(' ')[0];
      expect(messages.data.map((m) => [m.Outgoing, m.sent_by])).toContainEqual([
        `Habari ${first}, your ${serial} is off. Pay KES 50.00 a day to account ${serial}.`,
        'demo',
      ]);
    } finally {
      await apiCall(request, owner, 'PUT', '/settings/sms-provider', { provider: before.provider, config: before.config, reply_language: before.reply_language });
    }
  });

  test("one sales agent's devices out of credit: the Agent filter, kept in the URL, the counts, the list and the export of their customers only", async ({
    page,
    request,
  }) => {
    const owner = await apiToken(request);
    // The demo's three field agents and the customers who came in at the shop are offered.
    const listed = (await apiCall<{ data: { agents: string[]; truncated: boolean } }>(request, owner, 'GET', '/collections/agents')).data;
    expect(listed.agents).toEqual(expect.arrayContaining(['AGT-001', 'AGT-002', 'AGT-003']));
    expect(listed.agents.at(-1)).toBe('(no agent)');
    expect(listed.truncated).toBe(false);
    // The Agent report's Out of Credit Now: the first demo agent with devices out of credit.
    const report = await apiCall<AgentReport>(request, owner, 'POST', '/reports/page', { report: 'agents' });
    const outOfCredit = (agent: string) => report.rows.find((r) => r.agent === agent)?.out_of_credit ?? 0;
    const agent = ['AGT-001', 'AGT-002', 'AGT-003'].find((a) => outOfCredit(a) > 0);
    expect(agent, 'a demo agent with devices out of credit').toBeDefined();
    const count = outOfCredit(agent!);
    // One page holds them all.
    expect(count).toBeLessThanOrEqual(20);
    const everyone = (await apiCall<Summary>(request, owner, 'GET', '/collections/summary')).data.out_of_credit;
    expect(everyone).toBeGreaterThan(count);

    await signIn(page, undefined, '/collections');
    const table = page.getByRole('table', { name: 'Collections' });
    await expect(page.getByRole('radio', { name: `All: ${everyone} devices` })).toBeVisible();
    const field = page.getByRole('combobox', { name: 'Agent' });
    await expect(field).toHaveAttribute('placeholder', 'All agents');
    await field.click();
    const listbox = page.getByRole('listbox');
    await expect(listbox.getByRole('option', { name: 'No agent' })).toBeVisible();
    await screenshotBothThemes(page, 'collections-agent-options', { fullPage: false });
    await listbox.getByRole('option', { name: agent, exact: true }).click();

    await expect(page).toHaveURL(new RegExp(`/collections\\?agent=${agent}$`));
    await expect(field).toHaveValue(agent!);
    const devices = `${count} ${count === 1 ? 'device' : 'devices'}`;
    await expect(page.getByRole('radio', { name: `All: ${devices}` })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByText(/^Left to pay on open accounts of agent /)).toContainText(`of agent ${agent} `);
    // The Agent report's count of the agent's devices out of credit, each of them a customer of the agent.
    const rows = table.locator('tbody tr');
    const agentOf = await agentsByCustomer(request, owner);
    // Polled: the list of every agent stays on screen until the agent's arrives.
    await expect
      .poll(() =>
        rows.evaluateAll((trs, known) => {
          const ids = trs.map((tr) => tr.querySelector('a[href^="/customer-payment-details/"]')?.getAttribute('href')?.split('/').pop());
          return ids.map((id) => (id ? (known[id] ?? 'unknown customer') : 'no customer link'));
        }, Object.fromEntries(agentOf)),
      )
      .toEqual(Array.from({ length: count }, () => agent));
    await page.getByText(`Showing only the devices of agent ${agent}'s customers.`).waitFor();
    await screenshotBothThemes(page, 'collections-agent');
    expect(await overflowOf(table)).toBeLessThanOrEqual(0);

    // Kept across a reload, and in the export.
    await page.reload();
    await expect(field).toHaveValue(agent!);
    await expect(rows).toHaveCount(count);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(csv).toHaveLength(count + 1);

    // Text This Band says whose customers it texts.
    await page.getByRole('button', { name: 'Text This Band' }).click();
    const dialog = page.getByRole('dialog', { name: `Text every customer out of credit — agent ${agent}` });
    await expect(dialog.getByText(`only the customers of agent ${agent}`)).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    // On a phone: the field in a card beside All, so that whom to call stays in view.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(field).toHaveValue(agent!);
    await expect(field).toBeInViewport();
    const all = await page.getByRole('radio', { name: /^All: / }).boundingBox();
    const beside = await field.boundingBox();
    expect(Math.abs(beside!.y - all!.y)).toBeLessThan(60);
    await expect(rows.first().getByRole('link').first()).toBeInViewport();
    await screenshotBothThemes(page, 'collections-agent-phone');
    await page.setViewportSize({ width: 1366, height: 850 });

    // A band keeps the agent; the customers without an agent are a choice too.
    await page.getByRole('radio', { name: /^8–30 days/ }).click();
    await expect(page).toHaveURL(new RegExp(`/collections\\?bucket=8-30&agent=${agent}$`));
    await page.getByRole('radio', { name: /^All/ }).click();
    await field.click();
    await page.getByRole('listbox').getByRole('option', { name: 'No agent' }).click();
    await expect(page).toHaveURL(/\/collections\?agent=%28no\+agent%29$/);
    const shop = (await apiCall<Summary>(request, owner, 'GET', `/collections/summary?agent=${encodeURIComponent('(no agent)')}`)).data.out_of_credit;
    await expect(page.getByRole('radio', { name: `All: ${shop} ${shop === 1 ? 'device' : 'devices'}` })).toBeVisible();

    // Promises to Pay drops the agent, as the band; back on Out of Credit it is every agent's again.
    await page.getByRole('tab', { name: 'Promises to Pay' }).click();
    await expect(page).toHaveURL(/\/collections\?view=promises$/);
    await page.getByRole('tab', { name: 'Out of Credit' }).click();
    await expect(page).toHaveURL(/\/collections$/);
    await expect(field).toHaveValue('');
    await expect(page.getByRole('radio', { name: /^All: / })).toHaveAccessibleName(/^All: \d+ devices?$/);
  });
});
