import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createItem, createTemplate, onboard, unique } from './ops/api.js';

/** Last month in Nairobi ("2026-11"): the month the page opens on, and the demo's, whose commissions are being paid. */
function lastMonth(): string {
  const [y, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Nairobi', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/**
 * A sales agent of this test's own: their customer was given a device today and paid KES 2,000.00 by M-Pesa on the
 * 15th of last month, so at the demo's 500.00 a device and 5% they earned 100.00 last month.
 */
async function agentWithPayment(request: APIRequestContext, month: string) {
  const owner = await apiToken(request);
  const agent = unique('AGT');
  const customer = await apiCall<{ customer_id: number }>(request, owner, 'POST', '/register-customer', {
    customer_name: 'Akinyi Commission',
    id_number: unique('ID'),
    phone_contact: '0712345678',
    county: 'Kisumu',
    agent_id: agent,
  });
  const serial = unique('COM');
  await createItem(request, owner, serial);
  const plan = await createTemplate(request, owner, unique('Commission plan'));
  await onboard(request, owner, customer.customer_id, serial, plan.template_id);
  await apiCall(request, owner, 'POST', '/payments', {
    serial_number: serial,
    amount: 2000,
    payment_method: 'mobile_money',
    reference: unique('QK').replace('-', ''),
    paid_at: `${month}-15T09:00:00+03:00`,
  });
  return agent;
}

test.describe('agent commissions', () => {
  test("the owner pays an agent's month, reads their history, voids it by mistake and downloads the month", async ({ page, request }) => {
    const month = lastMonth();
    const agent = await agentWithPayment(request, month);
    await signIn(page, undefined, '/commissions');
    await expect(page.getByRole('heading', { name: 'Agent Commissions', exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/commissions$|month=/);
    // The demo's last month: the agent who earned the most was paid by M-Pesa, the others are owed.
    const table = page.getByRole('region', { name: 'By agent' });
    await expect(table.getByText('Ref SKC4D5E6F7')).toBeVisible();
    const row = table.getByRole('row').filter({ hasText: agent });
    await expect(row).toContainText('KES 2,000.00');
    await expect(row).toContainText('KES 100.00');
    await expect(row).toContainText('Unpaid');
    await screenshotBothThemes(page, 'commissions-month');

    // Mark Paid, with the M-Pesa code it was sent with.
    await row.getByRole('button', { name: `Mark Paid: ${agent}` }).click();
    const form = page.getByRole('form', { name: 'Mark Paid' });
    await expect(form).toContainText('KES 100.00');
    await form.getByRole('textbox', { name: 'Reference' }).fill('SKE9F8G7H6');
    await form.getByRole('textbox', { name: 'Note' }).fill('Sent to the agent’s phone');
    await screenshotBothThemes(page, 'commissions-mark-paid', { fullPage: false });
    await form.getByRole('button', { name: 'Record Payout' }).click();
    await expect(page.getByText(`Paid ${agent} a commission of 100.00 for`)).toBeVisible();
    await expect(row).toContainText('Paid');
    await expect(row).toContainText('Ref SKE9F8G7H6');
    await expect(row.getByRole('button', { name: `Mark Paid: ${agent}` })).toHaveCount(0);

    // Their history: the one payout.
    await row.getByRole('button', { name: `Payout history of ${agent}` }).click();
    const drawer = page.getByRole('dialog', { name: `${agent}'s payouts` });
    await expect(drawer).toContainText('SKE9F8G7H6');
    await expect(drawer).toContainText('KES 100.00');
    await screenshotBothThemes(page, 'commissions-history', { fullPage: false });
    await page.keyboard.press('Escape');

    // Voided by mistake: listed under the month with why, and the agent is owed again.
    await row.getByRole('button', { name: `Void the payout of ${agent}` }).click();
    const why = page.getByRole('form', { name: 'Void Payout' });
    await why.getByRole('textbox', { name: 'Reason' }).fill('Sent to the wrong number');
    await why.getByRole('button', { name: 'Void Payout' }).click();
    await expect(page.getByText(`Voided the commission of 100.00 paid to ${agent} for`)).toBeVisible();
    await expect(row).toContainText('Unpaid');
    const voided = page.getByRole('region', { name: 'Voided payouts' });
    await expect(voided).toContainText(agent);
    await expect(voided).toContainText('Sent to the wrong number');
    await screenshotBothThemes(page, 'commissions-voided');

    // The month as CSV, for the payroll: this agent owed again, the demo's top agent paid.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`commissions-${month}.csv`);
    const lines = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('month,agent,devices_given,payments,revenue,commission,status,paid_amount,difference,reference,paid_by,paid_at,note');
    expect(lines.find((l) => l.includes(agent))).toMatch(new RegExp(`^${month},${agent},0,1,2000.00,100.00,unpaid,`));
    expect(lines.some((l) => l.includes(',paid,') && l.includes('SKC4D5E6F7'))).toBe(true);
  });

  test('the owner pays every agent still owed for last month at once, with the bank batch reference', async ({ page, request }) => {
    const month = lastMonth();
    const agent = await agentWithPayment(request, month);
    await signIn(page, undefined, '/commissions');
    const table = page.getByRole('region', { name: 'By agent' });
    await expect(table.getByRole('row').filter({ hasText: agent })).toContainText('Unpaid');
    await page.getByRole('button', { name: 'Pay All Owed' }).click();
    const form = page.getByRole('form', { name: 'Pay All Owed' });
    const owed = form.getByRole('table', { name: 'Agents to pay' });
    await expect(owed).toContainText(agent);
    const count = (await owed.getByRole('row').count()) - 1;
    await form.getByRole('textbox', { name: 'Reference' }).fill('EQ-BATCH-2211');
    await screenshotBothThemes(page, 'commissions-pay-all', { fullPage: false });
    await form.getByRole('button', { name: `Record ${count} ${count === 1 ? 'Payout' : 'Payouts'}` }).click();
    await expect(page.getByText(`Paid ${count} agent${count === 1 ? '' : 's'} their commissions for`)).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: agent })).toContainText('Ref EQ-BATCH-2211');
    await expect(page.getByRole('group', { name: 'Unpaid' })).toContainText('0 agents to pay');
    await expect(page.getByRole('button', { name: 'Pay All Owed' })).toHaveCount(0);
  });

  test('a month not over cannot be paid yet', async ({ page }) => {
    await signIn(page, undefined, '/commissions');
    await page.getByRole('button', { name: 'Next month' }).click();
    await expect(page.getByText(/This month is not over yet: its commissions can be paid from/)).toBeVisible();
    await expect(page.getByRole('button', { name: /^Mark Paid/ })).toHaveCount(0);
  });
});
