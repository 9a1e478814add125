import type { APIRequestContext, Page } from '@playwright/test';
import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { apiCall, apiToken, createItem, unique } from './ops/api.js';
import { mailTo } from '../support/mail.js';

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
  const made = await apiCall<{ user_id: number }>(request, owner, 'POST', '/users', {
    username: who.username,
    email: `${who.username}@demo.kidogo.local`,
    password: who.password,
    role: 'staff',
  });
  return { ...who, user_id: made.user_id };
}

/** The owner opens a ticket on `serial` and gives it to `userId` (who is told, unless they turned it off); its id. */
async function ticketFor(request: APIRequestContext, owner: string, serial: string, userId: number) {
  const made = await apiCall<{ data: { ticket_id: number } }>(request, owner, 'POST', '/tickets', {
    serial_number: serial,
    category: 'device_fault',
    description: 'The lamp flickers and the battery is empty by evening.',
    assigned_to: userId,
  });
  return made.data.ticket_id;
}

const assignedMessage = (ticketId: number, serial: string) => `Ticket #${ticketId} on ${serial} (Device fault) was assigned to you by demo`;

/** The Notifications page's list, and its lines. */
const pageList = (page: Page) => page.getByRole('main').getByRole('list', { name: /^(Unread )?notifications$/i });
const pageRows = (page: Page) => pageList(page).getByRole('listitem');
/** A filter of the page's All / Unread control (its radio input is hidden under its label). */
const filter = (page: Page, name: 'All' | 'Unread') => page.getByRole('main').locator('label').filter({ hasText: new RegExp(`^${name}$`) });
/** The switch of a kind under What I Am Told Of: its Bell switch by its label, its Email switch by "Email: " and the label. */
const kindSwitch = (page: Page, label: string) => page.getByRole('region', { name: 'What I Am Told Of' }).getByRole('switch', { name: label, exact: true });

/** The page fits its width: nothing to scroll sideways. */
async function expectNoSideScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
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
    await expect(menu.getByText('For everyone', { exact: true })).toBeVisible();
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

  test('See All leads from the bell to the Notifications page; its Unread filter stays in the URL; Mark All as Read; desktop and phone', async ({ page, request }) => {
    const tech = await freshStaff(request);
    const owner = await apiToken(request);
    const serial = unique('ALL');
    await createItem(request, owner, serial, 'Solar Home 80W');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(await ticketFor(request, owner, serial, tech.user_id));
    // The oldest one read already.
    const techToken = await apiToken(request, tech);
    const oldest = (await mine(request, techToken)).data.items.find((n) => n.ticket_id === ids[0])!;
    await apiCall(request, techToken, 'POST', '/me/notifications/read', { ids: [oldest.id] });

    await signIn(page, tech);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expectCount(page, 2);
    await bell(page).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'See All' }).click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(page.getByRole('heading', { name: 'Notifications', level: 2 })).toBeVisible();
    await expect(page.getByRole('menu')).toBeHidden();

    // Newest first, like the bell: the two unread in bold, each leading to its ticket.
    await expect(pageRows(page)).toHaveCount(3);
    const links = pageList(page).getByRole('link');
    for (const [i, id] of [ids[2]!, ids[1]!, ids[0]!].entries()) {
      await expect(links.nth(i)).toHaveAccessibleName(new RegExp(assignedMessage(id, serial).replace(/[()#]/g, '\\$&')));
      await expect(links.nth(i)).toHaveAttribute('href', `/tickets?ticket=${id}`);
    }
    await expect(pageList(page).locator('[data-unread]')).toHaveCount(2);
    await expect(kindSwitch(page, 'A service ticket is assigned to me')).toBeChecked();
    await expect(page.getByRole('switch', { name: /Payments are held/ })).toHaveCount(0);
    await expectNoSideScroll(page);
    // The pointer left where See All was: over a line, which it would show hovered.
    await page.mouse.move(0, 0);
    await screenshotBothThemes(page, 'notifications-page');

    // Unread: the two, kept in the URL through a reload.
    await filter(page, 'Unread').click();
    await expect(page).toHaveURL(/\/notifications\?unread=true$/);
    await expect(pageRows(page)).toHaveCount(2);
    await page.reload();
    await expect(pageRows(page)).toHaveCount(2);
    await expect(page.getByRole('radio', { name: 'Unread' })).toBeChecked();

    // Mark All as Read: nothing unread left, on the page and on the bell.
    await page.getByRole('button', { name: 'Mark All as Read' }).click();
    await expect(page.getByText('No unread notifications')).toBeVisible();
    await expectCount(page, 0);
    await expect(page.getByRole('button', { name: 'Mark All as Read' })).toHaveCount(0);
    await screenshotBothThemes(page, 'notifications-page-unread-empty');
    expect((await mine(request, techToken)).data.unread).toBe(0);
    await filter(page, 'All').click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(pageRows(page)).toHaveCount(3);
    await expect(pageList(page).locator('[data-unread]')).toHaveCount(0);

    // A line leads where the bell's does.
    await links.first().click();
    await expect(page).toHaveURL(new RegExp(`/tickets\\?ticket=${ids[2]}$`));
    await expect(page.getByRole('dialog', { name: `Ticket #${ids[2]}` })).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    // On a phone: from the bell the same way; the list, then the switches, in one column.
    await page.setViewportSize(PHONE);
    await bell(page).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'See All' }).click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(pageRows(page)).toHaveCount(3);
    await expect(kindSwitch(page, 'A service ticket is assigned to me')).toBeVisible();
    await expectNoSideScroll(page);
    await screenshotBothThemes(page, 'notifications-page-phone');
    await page.setViewportSize(DESKTOP);
  });

  test('a kind turned off is not told of, and on again is; the switches keep their state through a reload', async ({ page, request }) => {
    const tech = await freshStaff(request);
    const owner = await apiToken(request);
    const techToken = await apiToken(request, tech);
    const serial = unique('MUTE');
    await createItem(request, owner, serial, 'Solar Home 80W');
    const assigned = 'A service ticket is assigned to me';

    // From Settings, where the user's own things are.
    await signIn(page, tech, '/settings');
    await expect(page).toHaveURL(/\/settings$/);
    await page.getByRole('region', { name: 'Notifications' }).getByRole('link', { name: 'Open Notifications' }).click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(page.getByText('Nothing for you yet')).toBeVisible();
    // Staff are never told of held payments or problems customers report: the other eight kinds, all on in the bell, none emailed.
    const card = page.getByRole('region', { name: 'What I Am Told Of' });
    await expect(card.getByRole('switch')).toHaveCount(16);
    const emailSwitches = card.getByRole('switch', { name: /^Email: / });
    await expect(emailSwitches).toHaveCount(8);
    for (const s of await card.locator('input[role="switch"]:not([aria-label^="Email: "])').all()) await expect(s).toBeChecked();
    for (const s of await emailSwitches.all()) await expect(s).not.toBeChecked();
    await expect(card.getByText('Turning a kind off stops new notifications of it; those you already have stay.')).toBeVisible();

    // Off: saved at once, and still off after a reload.
    await kindSwitch(page, assigned).click({ force: true });
    await expect(page.getByText('Notification settings saved')).toBeVisible();
    await expect(kindSwitch(page, assigned)).not.toBeChecked();
    expect(await apiCall(request, techToken, 'GET', '/me/notification-settings')).toMatchObject({ data: { muted: ['ticket_assigned'], emailed: [] } });
    await page.reload();
    await expect(kindSwitch(page, assigned)).not.toBeChecked();
    await expect(kindSwitch(page, 'A ticket I opened is resolved')).toBeChecked();
    await screenshotBothThemes(page, 'notifications-settings');

    // A ticket given to them meanwhile: not told.
    const unheard = await ticketFor(request, owner, serial, tech.user_id);
    expect((await mine(request, techToken)).data.items.some((n) => n.ticket_id === unheard)).toBe(false);

    // On again: told of the next one.
    await kindSwitch(page, assigned).click({ force: true });
    await expect(page.getByText('Notification settings saved').first()).toBeVisible();
    await expect(kindSwitch(page, assigned)).toBeChecked();
    expect(await apiCall(request, techToken, 'GET', '/me/notification-settings')).toMatchObject({ data: { muted: [], emailed: [] } });
    const heard = await ticketFor(request, owner, serial, tech.user_id);
    await page.reload();
    await expect(kindSwitch(page, assigned)).toBeChecked();
    await expectCount(page, 1);
    await expect(pageRows(page)).toHaveCount(1);
    await expect(pageList(page).getByRole('link', { name: new RegExp(`Ticket #${heard} on ${serial}`) })).toHaveAttribute('data-unread', 'true');
    await signOut(page);

    // An owner is offered held payments and the problems customers report too.
    await signIn(page, undefined, '/notifications');
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(kindSwitch(page, 'Payments are held for matching (owners and admins)')).toBeChecked();
    await expect(kindSwitch(page, 'A customer reports a problem by USSD (owners and admins)')).toBeChecked();
    // A bell and an email switch per kind, and the morning's summary, which an owner turns on and off.
    await expect(page.getByRole('region', { name: 'What I Am Told Of' }).getByRole('switch')).toHaveCount(21);
    const summary = page.getByRole('region', { name: 'What I Am Told Of' }).getByRole('switch', { name: /^A summary of yesterday each morning/ });
    await summary.click({ force: true });
    await expect(summary).toBeChecked();
    expect(await apiCall(request, owner, 'GET', '/me/notification-settings')).toMatchObject({ data: { daily_summary: true } });
    await summary.click({ force: true });
    await expect(summary).not.toBeChecked();
    await expect.poll(async () => ((await apiCall(request, owner, 'GET', '/me/notification-settings')) as { data: { daily_summary: boolean } }).data.daily_summary).toBe(false);
  });

  test('a kind chosen for email reaches the inbox too: the ticket given to the technician, in a mail a moment later', async ({ page, request }) => {
    const tech = await freshStaff(request);
    const owner = await apiToken(request);
    const serial = unique('MAIL');
    await createItem(request, owner, serial, 'Solar Home 80W');
    const assigned = 'A service ticket is assigned to me';

    await signIn(page, tech, '/notifications');
    await expect(page).toHaveURL(/\/notifications$/);
    const card = page.getByRole('region', { name: 'What I Am Told Of' });
    await expect(card.getByText(`Emailed kinds go to ${tech.username}@demo.kidogo.local`, { exact: false })).toBeVisible();
    await kindSwitch(page, `Email: ${assigned}`).click({ force: true });
    await expect(page.getByText('Notification settings saved')).toBeVisible();
    await expect(kindSwitch(page, `Email: ${assigned}`)).toBeChecked();
    await screenshotBothThemes(page, 'notifications-email-settings');

    const ticket = await ticketFor(request, owner, serial, tech.user_id);
    const mail = await mailTo(`${tech.username}@demo.kidogo.local`);
    expect(mail.subject).toBe(`Kidogo: ${assignedMessage(ticket, serial)}`);
    expect(mail.text).toContain(`Hello ${tech.username},`);
    expect(mail.text).toMatch(/See them in Kidogo: http:\/\/127\.0\.0\.1:\d+\/notifications/);
  });
});
