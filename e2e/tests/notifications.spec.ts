import type { APIRequestContext, Page } from '@playwright/test';
import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createItem, unique } from './ops/api.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 850 };

interface MyNotifications {
  data: {
    items: { id: number; kind: string; message: string; ticket_id: number | null; actor: string | null; read_at: string | null }[];
    unread: number;
  };
}

const mine = (request: APIRequestContext, token: string) => apiCall<MyNotifications>(request, token, 'GET', '/me/notifications?limit=50');

/** The header's bell, and the count on it (hidden at zero). */
const bell = (page: Page) => page.getByRole('banner').getByRole('button', { name: 'Notifications' });
const count = (page: Page) => bell(page).locator('.mantine-Indicator-indicator');

/** What the count on the bell reads for `unread`. */
const shown = (unread: number) => (unread > 9 ? '9+' : String(unread));

async function expectCount(page: Page, unread: number) {
  if (unread === 0) await expect(count(page)).toBeHidden();
  else await expect(count(page)).toHaveText(shown(unread));
}

/** A staff user of the demo organization, each run its own, so its bell starts empty. */
async function freshStaff(request: APIRequestContext) {
  const owner = await apiToken(request);
  const who = { username: unique('tech').toLowerCase(), password: 'bell-rings-1' };
  await apiCall(request, owner, 'POST', '/users', { username: who.username, email: `${who.username}@demo.kidogo.local`, password: who.password, role: 'staff' });
  return who;
}

/** Signs the page's user out through the user menu. */
async function signOut(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
}

test.describe('your notifications', () => {
  test("the demo owner's bell counts the ticket the technician gave them; clicking it opens the ticket, read; desktop and phone", async ({ page, request }) => {
    // The seed: the technician opened the PHN-3002 ticket about a refused code and gave it to the owner.
    const owner = await apiToken(request);
    const before = await mine(request, owner);
    const given = before.data.items.find((n) => /^Ticket #\d+ on PHN-3002 \(Code not accepted\) was assigned to you by \w+$/.test(n.message));
    expect(given, 'the seeded notification').toBeDefined();
    expect(given!.read_at).toBeNull();
    expect(before.data.unread).toBeGreaterThan(0);

    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expectCount(page, before.data.unread);

    // For you first, the unread one in bold, then the platform's notices.
    await bell(page).click();
    const menu = page.getByRole('menu');
    const item = menu.getByRole('menuitem', { name: given!.message });
    await expect(item).toHaveAttribute('data-unread', 'true');
    await expect(item).toHaveAttribute('href', `/tickets?ticket=${given!.ticket_id}`);
    await expect(item).toContainText(` · ${given!.actor}`);
    await expect(menu.getByText('For you', { exact: true })).toBeVisible();
    await expect(menu.getByText('From the platform', { exact: true })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: /Welcome to Kidogo!/ })).toBeVisible();
    await expect(menu.getByRole('button', { name: 'Mark All as Read' })).toBeVisible();
    await screenshotBothThemes(page, 'notifications-menu', { fullPage: false });

    // Clicked: the Service Tickets page with the ticket open over it; read, it counts no more.
    await item.click();
    await expect(page).toHaveURL(new RegExp(`/tickets\\?ticket=${given!.ticket_id}$`));
    const dialog = page.getByRole('dialog', { name: `Ticket #${given!.ticket_id}` });
    await expect(dialog.getByRole('link', { name: 'PHN-3002' })).toBeVisible();
    await expect(dialog.getByRole('combobox', { name: 'Assign To' })).toHaveValue('demo');
    await expectCount(page, before.data.unread - 1);
    await screenshotBothThemes(page, 'notifications-ticket', { fullPage: false });
    const after = await mine(request, owner);
    expect(after.data.unread).toBe(before.data.unread - 1);
    expect(after.data.items.find((n) => n.id === given!.id)?.read_at).not.toBeNull();

    // Closed, the link's ticket leaves the URL; the list is the usual one.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/tickets$/);
    await expect(page.getByRole('table', { name: 'Service Tickets' }).getByRole('row', { name: new RegExp(`#${given!.ticket_id}\\b`) })).toBeVisible();

    // Read, the line is no longer bold.
    await bell(page).click();
    await expect(menu.getByRole('menuitem', { name: given!.message })).not.toHaveAttribute('data-unread');
    await page.keyboard.press('Escape');

    // A link to a ticket that is not there says so, over the list.
    await page.goto('/tickets?ticket=999999');
    await expect(page.getByRole('alert').filter({ hasText: 'Ticket #999999 was not found' })).toBeVisible();
    await screenshotBothThemes(page, 'notifications-ticket-not-found', { fullPage: false });
    await page.getByRole('alert').getByRole('button', { name: 'Dismiss' }).click();
    await expect(page).toHaveURL(/\/tickets$/);

    // On a phone: the menu fits the screen, and the ticket opens full screen.
    await page.setViewportSize(PHONE);
    await bell(page).click();
    await expect(menu).toBeInViewport({ ratio: 1 });
    await screenshotBothThemes(page, 'notifications-menu-phone', { fullPage: false });
    await menu.getByRole('menuitem', { name: given!.message }).click();
    await expect(dialog).toBeVisible();
    await screenshotBothThemes(page, 'notifications-ticket-phone', { fullPage: false });
    await page.setViewportSize(DESKTOP);
  });

  test('a ticket one user gives another rings the other one’s bell, and its resolution rings the first one’s', async ({ page, request }) => {
    const tech = await freshStaff(request);
    const owner = await apiToken(request);
    const serial = unique('BEL');
    await createItem(request, owner, serial, 'Solar Home 80W');
    const ticketId = (
      await apiCall<{ data: { ticket_id: number } }>(request, owner, 'POST', '/tickets', {
        serial_number: serial,
        category: 'device_fault',
        description: 'The panel gives nothing on a sunny afternoon.',
      })
    ).data.ticket_id;
    const ownerUnread = (await mine(request, owner)).data.unread;

    // The owner gives the ticket to the technician on the Service Tickets page.
    await signIn(page, undefined, `/tickets?serial=${serial}`);
    const row = page.getByRole('table', { name: 'Service Tickets' }).getByRole('row', { name: new RegExp(`#${ticketId}\\b`) });
    await row.getByRole('button', { name: `Update Ticket #${ticketId}` }).click();
    let dialog = page.getByRole('dialog', { name: `Ticket #${ticketId}` });
    await dialog.getByRole('combobox', { name: 'Assign To' }).click();
    await page.getByRole('option', { name: tech.username, exact: true }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`Ticket #${ticketId} updated`)).toBeVisible();
    await expect(row.getByText(tech.username, { exact: true })).toBeVisible();
    // Nothing for the owner: they did it themselves.
    expect((await mine(request, owner)).data.unread).toBe(ownerUnread);
    await signOut(page);

    // The technician: one unread, the ticket given by the owner.
    await signIn(page, tech);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expectCount(page, 1);
    await bell(page).click();
    const message = `Ticket #${ticketId} on ${serial} (Device fault) was assigned to you by demo`;
    const item = page.getByRole('menu').getByRole('menuitem', { name: message });
    await expect(item).toHaveAttribute('data-unread', 'true');
    await item.click();
    dialog = page.getByRole('dialog', { name: `Ticket #${ticketId}` });
    await expect(dialog.getByRole('combobox', { name: 'Assign To' })).toHaveValue(tech.username);
    await expectCount(page, 0);

    // The technician resolves it there.
    await dialog.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Resolved' }).click();
    await dialog.getByRole('textbox', { name: 'Resolution' }).fill('Cleaned the panel and tightened its cable.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`Ticket #${ticketId} is now resolved`)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/tickets$/);
    await signOut(page);

    // The owner opened it: told it is resolved, by whom.
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expectCount(page, ownerUnread + 1);
    await bell(page).click();
    const resolved = page.getByRole('menu').getByRole('menuitem', { name: `Ticket #${ticketId} on ${serial}, which you opened, was resolved by ${tech.username}` });
    await expect(resolved).toHaveAttribute('data-unread', 'true');
    await expect(page.getByRole('menu').getByRole('menuitem').first()).toHaveAccessibleName(new RegExp(`#${ticketId} on ${serial}`));

    // Mark All as Read: nothing left to count, nothing bold; the menu stays open.
    await page.getByRole('menu').getByRole('button', { name: 'Mark All as Read' }).click();
    await expectCount(page, 0);
    await expect(resolved).not.toHaveAttribute('data-unread');
    await expect(page.getByRole('menu').getByRole('button', { name: 'Mark All as Read' })).toHaveCount(0);
    await expect(page.getByRole('menu').locator('[data-unread]')).toHaveCount(0);
    await screenshotBothThemes(page, 'notifications-menu-read', { fullPage: false });
    expect((await mine(request, owner)).data.unread).toBe(0);
  });
});
