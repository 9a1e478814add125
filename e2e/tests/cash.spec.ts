import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createCustomer, createItem, createTemplate, onboard, unique } from './ops/api.js';

const DAY = 86_400_000;

/**
 * A field agent of this test's own (staff), who took two cash payments on a device of this test's own: 500.00 five
 * days ago and 300.00 today.
 */
async function agentWithCash(request: APIRequestContext) {
  const owner = await apiToken(request);
  const agent = { username: unique('agent').toLowerCase(), password: 'field-agent-1' };
  await apiCall(request, owner, 'POST', '/users', { ...agent, email: `${agent.username}@example.test`, role: 'staff' });
  const customer = await createCustomer(request, owner, 'Wanjiku Cash');
  const serial = unique('CSH');
  await createItem(request, owner, serial);
  const plan = await createTemplate(request, owner, unique('Cash plan'));
  await onboard(request, owner, customer.customer_id, serial, plan.template_id);
  const token = await apiToken(request, agent);
  const pay = (amount: number, paid_at?: string) =>
    apiCall(request, token, 'POST', '/payments', { serial_number: serial, amount, payment_method: 'cash', ...(paid_at ? { paid_at } : {}) });
  await pay(500, new Date(Date.now() - 5 * DAY).toISOString());
  await pay(300);
  return { agent, serial };
}

test.describe('cash in hand', () => {
  test('the owner sees what an agent holds, records a handover, reads the ledger and voids it', async ({ page, request }) => {
    const { agent, serial } = await agentWithCash(request);
    await signIn(page, undefined, '/cash');
    await expect(page.getByRole('heading', { name: 'Cash in Hand', exact: true })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: agent.username });
    await expect(row).toContainText('KES 800.00');
    await expect(row).toContainText('Held 5 days');
    await screenshotBothThemes(page, 'cash-in-hand');

    // A handover of the oldest 500: what is left was paid today, so nothing is overdue.
    await row.getByRole('button', { name: `Record Handover by ${agent.username}` }).click();
    const form = page.getByRole('form', { name: 'Record Handover' });
    await expect(form.getByRole('textbox', { name: 'Amount' })).toHaveValue(/800/);
    await form.getByRole('textbox', { name: 'Amount' }).fill('900');
    await form.getByRole('button', { name: 'Record Handover' }).click();
    await expect(form).toContainText('800');
    await form.getByRole('textbox', { name: 'Amount' }).fill('500');
    await form.getByRole('textbox', { name: 'Reference' }).fill('SLIP-0042');
    await screenshotBothThemes(page, 'cash-handover', { fullPage: false });
    await form.getByRole('button', { name: 'Record Handover' }).click();
    await expect(page.getByText(`Recorded KES 500.00 handed over by ${agent.username}: they hold KES 300.00 now`)).toBeVisible();
    await expect(row).toContainText('KES 300.00');
    await expect(row).not.toContainText('Held 5 days');

    // The ledger: the handover, today's 300 and the 500 of five days ago, each with what was held after it.
    await row.getByRole('button', { name: `Ledger of ${agent.username}` }).click();
    const drawer = page.getByRole('dialog', { name: `${agent.username}'s cash` });
    await expect(drawer).toContainText('Handover to demo');
    await expect(drawer).toContainText('SLIP-0042');
    await expect(drawer.getByRole('link', { name: serial }).first()).toBeVisible();
    await expect(drawer.getByRole('row')).toHaveCount(4);
    await screenshotBothThemes(page, 'cash-ledger', { fullPage: false });

    // Voided: struck through, and the 500 counts as held again.
    await drawer.getByRole('button', { name: /^Void the handover of/ }).click();
    const why = page.getByRole('form', { name: 'Void Handover' });
    await why.getByRole('textbox', { name: 'Why?' }).fill('Counted twice');
    await why.getByRole('button', { name: 'Void Handover' }).click();
    await expect(page.getByText(`Voided the handover of KES 500.00 by ${agent.username}: they hold KES 800.00 now`)).toBeVisible();
    await expect(drawer).toContainText('Voided by demo: Counted twice');
    await page.keyboard.press('Escape');
    await expect(row).toContainText('KES 800.00');

    // The handovers as CSV for the bank: this agent's one, voided, with why.
    await page.getByRole('button', { name: 'Export Handovers' }).click();
    const exporter = page.getByRole('dialog', { name: 'Export Handovers' });
    await exporter.getByLabel('Collector').click();
    await page.getByRole('option', { name: agent.username }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), exporter.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^cash-handovers-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('handover_id,handed_at,collector,amount,currency,received_by,reference,note,recorded_at,voided_at,voided_by,void_reason');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,${agent.username},500.00,KES,demo,SLIP-0042,`);
    expect(lines[1]).toMatch(/,demo,Counted twice$/);
  });

  test("the office enters an agent's cash receipt as collected by the agent, who then holds it", async ({ page, request }) => {
    const { agent, serial } = await agentWithCash(request);
    await signIn(page, undefined, `/device-activity/${serial}`);
    await page.getByRole('button', { name: 'Record Payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record Payment' });
    await dialog.getByRole('textbox', { name: 'Amount' }).fill('200');
    await dialog.getByLabel('Collected By').click();
    await page.getByRole('option', { name: agent.username, exact: true }).click();
    await screenshotBothThemes(page, 'cash-record-payment', { fullPage: false });
    await dialog.getByRole('button', { name: 'Record Payment' }).click();
    await expect(page.getByRole('dialog', { name: 'Payment Recorded' })).toContainText(`applied to ${serial}`);

    await page.goto('/cash');
    const row = page.getByRole('row').filter({ hasText: agent.username });
    await expect(row).toContainText('KES 1,000.00');
    await row.getByRole('button', { name: `Ledger of ${agent.username}` }).click();
    const drawer = page.getByRole('dialog', { name: `${agent.username}'s cash` });
    await expect(drawer.getByRole('row').nth(1)).toContainText('Entered by demo');
  });

  test('an agent sees only their own cash, and cannot record a handover', async ({ page, request }) => {
    const { agent } = await agentWithCash(request);
    await signIn(page, agent, '/cash');
    await expect(page.getByRole('heading', { name: 'Cash in Hand', exact: true })).toBeVisible();
    await expect(page.getByText('Hand the cash you collect to an owner or admin; they record it here.')).toBeVisible();
    const rows = page.getByRole('row').filter({ hasText: 'KES' });
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(agent.username);
    await expect(rows.first()).toContainText('KES 800.00');
    await expect(page.getByRole('button', { name: /^Record Handover/ })).toHaveCount(0);
    await screenshotBothThemes(page, 'cash-agent');
  });

  test("the demo's technician is told of the cash he has held too long, and the notification opens his ledger", async ({ page }) => {
    await signIn(page, { username: 'baraka', password: 'baraka123' }, '/notifications');
    const told = page.getByRole('link', { name: /You have held KES 5,800\.00 in cash for \d+ days \(since .+\): hand it over/ });
    await expect(told).toBeVisible();
    await screenshotBothThemes(page, 'cash-overdue-notification');
    await told.click();
    await expect(page).toHaveURL(/\/cash\?ledger=baraka$/);
    const drawer = page.getByRole('dialog', { name: "baraka's cash" });
    await expect(drawer.getByRole('group', { name: 'In Hand' })).toContainText('KES 5,800.00');
    await drawer.getByRole('button', { name: 'Close dialog' }).click();
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(/\/cash$/);
  });
});
