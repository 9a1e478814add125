import { expect, screenshotBothThemes, signIn, test } from '../support/fixtures.js';
import { mailTo } from '../support/mail.js';
import { apiCall, apiToken, unique } from './ops/api.js';

test.describe('forgot password', () => {
  test('a user asks for a link, gets it by email, chooses a new password and signs in with it', async ({ page, request }) => {
    const owner = await apiToken(request);
    const who = { username: unique('forgot').toLowerCase(), password: 'first-password-1' };
    const email = `${who.username}@demo.kidogo.local`;
    await apiCall(request, owner, 'POST', '/users', { username: who.username, email, password: who.password, role: 'staff' });

    await page.goto('/login');
    await page.getByLabel('Username').fill(who.username);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
    await expect(page.getByLabel('Username or email')).toHaveValue(who.username);
    await screenshotBothThemes(page, 'forgot-password');
    await page.getByRole('button', { name: 'Send Link' }).click();
    await expect(page.getByRole('status')).toContainText('Check your email');
    await screenshotBothThemes(page, 'forgot-password-sent');

    const mail = await mailTo(email);
    expect(mail.subject).toBe('Choose a new Kidogo password');
    const link = /(http:\/\/127\.0\.0\.1:\d+\/reset-password\?token=[\w-]+)/.exec(mail.text)?.[1];
    expect(link).toBeTruthy();

    await page.goto(link!);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await page.getByLabel(/^New password/).fill('second-password-2');
    await page.getByLabel(/^Confirm new password/).fill('second-password-2');
    await screenshotBothThemes(page, 'reset-password');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await expect(page.getByRole('status')).toContainText(`The password of ${who.username} has been changed.`);
    await screenshotBothThemes(page, 'reset-password-done');

    // The link works once.
    await page.goto(link!);
    await page.getByLabel(/^New password/).fill('third-password-3');
    await page.getByLabel(/^Confirm new password/).fill('third-password-3');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await expect(page.getByRole('alert')).toContainText('This link has expired or was already used: ask for a new one');
    await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();

    await signIn(page, { username: who.username, password: 'second-password-2' });
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
