import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, SCREENSHOTS, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createItem, createTemplate, onboard, unique } from './ops/api.js';

/** The card alone, light and dark: Settings as a whole is too long a page to read one card in. */
async function shootCard(page: Page, card: Locator, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-mantine-color-scheme', t), theme);
    await page.waitForTimeout(150);
    // The page's fixed header and any toast would lie over the card where it is scrolled to.
    await card.screenshot({ path: resolve(SCREENSHOTS, `${name}-${theme}.png`), style: '.mantine-AppShell-header, .mantine-Notifications-root { display: none !important; }' });
  }
  await page.evaluate(() => document.documentElement.setAttribute('data-mantine-color-scheme', 'light'));
}

test.describe('the USSD menu', () => {
  test('the owner turns the menu on, tries it as a customer, sees a real dial in Recent Sessions and replaces the address', async ({ page, request }) => {
    // A customer of this test's own, on a phone nobody else has, with a device, a plan and a payment (so a code).
    const owner = await apiToken(request);
    const phone = `07${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const customer = await apiCall<{ customer_id: number }>(request, owner, 'POST', '/register-customer', {
      customer_name: 'Zawadi Dialler',
      id_number: unique('ID'),
      phone_contact: phone,
      county: 'Kisumu',
    });
    const serial = unique('USSD');
    await createItem(request, owner, serial);
    const plan = await createTemplate(request, owner, unique('USSD plan'));
    await onboard(request, owner, customer.customer_id, serial, plan.template_id);
    await apiCall(request, owner, 'POST', '/payments', { serial_number: serial, amount: 1000, payment_method: 'cash' });

    await signIn(page, undefined, '/settings');
    const card = page.getByRole('region', { name: 'USSD Menu' });
    await card.scrollIntoViewIfNeeded();
    // The demo starts with the menu off; a run before this one may have left it on.
    if ((await card.getByTestId('ussd-status').textContent()) === 'On') {
      await card.getByRole('button', { name: 'Turn Off' }).click();
      await expect(card.getByTestId('ussd-status')).toHaveText('Off');
    }
    await card.getByRole('button', { name: 'Turn On' }).click();
    await expect(card.getByTestId('ussd-status')).toHaveText('On');
    const address = card.getByRole('textbox', { name: 'Callback URL' });
    await expect(address).toHaveValue(/\/payg\/external\/ussd\/ussd_[A-Za-z0-9_-]{32}$/);
    const url = await address.inputValue();

    // Try it as the customer's phone: the first screen, then their balance; nothing is done by a try.
    await card.getByRole('textbox', { name: 'Phone Number' }).fill(phone);
    await card.getByRole('button', { name: 'Dial' }).click();
    const screen = card.getByTestId('ussd-screen');
    await expect(screen).toContainText('Hi Zawadi');
    await expect(screen).toContainText('1. My balance');
    const answer = async (text: string) => {
      await card.getByRole('textbox', { name: 'Answer' }).fill(text);
      await card.getByRole('button', { name: 'Send' }).click();
    };
    await answer('2');
    await expect(screen).toContainText(`${serial} last code:`);
    await expect(card.getByText('Session ended')).toBeVisible();
    // Report a problem (its number depends on whether Pay now is offered): a try says it would open a ticket, and does not.
    await card.getByRole('button', { name: 'Start Over' }).click();
    await card.getByRole('button', { name: 'Dial' }).click();
    await expect(screen).toContainText('Report a problem');
    const report = /(\d)\. Report a problem/.exec((await screen.textContent()) ?? '')![1]!;
    await answer(report);
    await expect(screen).toContainText(`What is wrong with ${serial}?`);
    await answer('2');
    await expect(screen).toContainText(`Ticket #(new) is open for ${serial}`);
    await expect(card.getByTestId('ussd-would')).toContainText(`Not done in a try: Open a ticket for ${serial}: Code not accepted`);
    await shootCard(page, card, 'settings-ussd-try');

    // The gateway posts a real session to the address: the first screen, then My balance.
    const sessionId = unique('ATUid');
    const step = async (text: string) => {
      const res = await request.post(url, { form: { sessionId, serviceCode: '*384*123#', phoneNumber: `+254${phone.slice(1)}`, networkCode: '63902', text } });
      expect(res.status()).toBe(200);
      return res.text();
    };
    expect(await step('')).toMatch(/^CON .*Hi Zawadi\n1\. My balance/);
    expect(await step('1')).toMatch(new RegExp(`^END ${serial}: credit until .*left to pay\\.$`));

    // Another session: the customer reports that the device does not work. A ticket is opened, and the owner is told.
    const reportId = unique('ATUid');
    const reported = await request.post(url, {
      form: { sessionId: reportId, serviceCode: '*384*123#', phoneNumber: `+254${phone.slice(1)}`, networkCode: '63902', text: `${report}*1` },
    });
    const ticketNo = /^END Thank you\. Ticket #(\d+) is open for /.exec(await reported.text())?.[1];
    expect(ticketNo, 'the ticket number on the last screen').toBeDefined();
    await page.reload();
    await page.getByRole('banner').getByRole('button', { name: 'Notifications' }).click();
    const told = page.getByRole('menu').getByRole('menuitem', { name: `The customer of ${serial} reported a problem by USSD: Device fault (ticket #${ticketNo})` });
    await expect(told).toHaveAttribute('href', `/tickets?ticket=${ticketNo}`);
    await told.click();
    await expect(page.getByRole('dialog', { name: `Ticket #${ticketNo}` })).toBeVisible();
    await page.goto('/settings');
    await card.scrollIntoViewIfNeeded();
    const sessions = card.getByRole('table', { name: 'Recent USSD sessions' });
    const rows = sessions.getByRole('row').filter({ hasText: 'Zawadi Dialler' });
    await expect(rows.filter({ hasText: 'Problem reported' })).toContainText(`Ticket #${ticketNo}`);
    const row = rows.filter({ hasText: 'Balance' });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('link', { name: 'Zawadi Dialler' })).toHaveAttribute('href', `/customer-payment-details/${customer.customer_id}`);
    await expect(card.getByTestId('ussd-service-code')).toHaveText('*384*123#');
    await shootCard(page, card, 'settings-ussd-on');

    // A new address: confirmed first; the old one is then no menu's.
    await card.getByRole('button', { name: 'New Address' }).click();
    const dialog = page.getByRole('dialog', { name: 'Give the menu a new address?' });
    await dialog.getByRole('button', { name: 'New Address' }).click();
    await expect(dialog).toBeHidden();
    await expect(address).not.toHaveValue(url);
    const old = await request.post(url, { form: { sessionId: unique('ATUid'), phoneNumber: '+254700000000', text: '' } });
    expect(old.status()).toBe(404);

    // Off: the address answers that the service is not available.
    const current = await address.inputValue();
    await card.getByRole('button', { name: 'Turn Off' }).click();
    await expect(card.getByTestId('ussd-status')).toHaveText('Off');
    const off = await request.post(current, { form: { sessionId: unique('ATUid'), phoneNumber: `+254${phone.slice(1)}`, text: '' } });
    expect(await off.text()).toBe('END Sorry, this service is not available now.');
  });
});
