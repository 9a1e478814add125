import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { mockSettingsApi } from '@/features/settings/testing/mock-settings-api';
import { renderApp } from '@/testing/render';
import { CURRENT_CODE, OTPAUTH_URL, PASSWORD, REQUIRED_CANNOT_TURN_OFF, SECRET, recoveryCodes, twoFactorApi } from '../testing/mock-two-factor-api';

async function openCard(initial?: Parameters<typeof twoFactorApi>[0]) {
  seedSession({ user: buildUser({ user_id: 7, username: 'amina', role: 'staff' }) });
  const api = twoFactorApi(initial);
  const { calls } = mockSettingsApi(api.handler);
  renderApp('/settings');
  const card = await screen.findByRole('region', { name: 'Two-Factor Sign-In' });
  const sent = (path: string) => calls.filter((c) => c.method === 'POST' && c.url === `/payg/auth/2fa${path}`).map((c) => JSON.parse(c.body!));
  return { card, api, calls, sent };
}

const passwordBox = (dialog: HTMLElement) => within(dialog).getByLabelText(/^Current password/, { selector: 'input' });

/** What the browser is handed to save: the file name and the blob's text. */
function captureDownloads() {
  const saved: { name: string; blob: Blob }[] = [];
  let blob: Blob | null = null;
  URL.createObjectURL = vi.fn((b: Blob) => {
    blob = b;
    return 'blob:codes';
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blob! });
  });
  return saved;
}

describe('Two-Factor Sign-In card', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sets it up: password, then the QR code and setup key and the first code, then the recovery codes once', async () => {
    const user = userEvent.setup();
    const saved = captureDownloads();
    const { card, sent } = await openCard();
    expect(await within(card).findByText('Off')).toBeInTheDocument();
    expect(card).toHaveTextContent(/a stolen or guessed password alone cannot get into your account/);

    await user.click(within(card).getByRole('button', { name: 'Set Up' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set Up Two-Factor Sign-In' });
    expect(dialog).toHaveTextContent('Step 1 of 3');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByText('Current password is required')).toBeInTheDocument();
    expect(sent('/setup')).toEqual([]);

    await user.type(passwordBox(dialog), 'not-it');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByText('Current password is incorrect')).toBeInTheDocument();
    expect(passwordBox(dialog)).toHaveAttribute('aria-invalid', 'true');
    await user.clear(passwordBox(dialog));
    expect(within(dialog).queryByText('Current password is incorrect')).not.toBeInTheDocument();
    await user.type(passwordBox(dialog), PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));

    // Step 2: the QR code of the otpauth URL, and the key for typing, in fours.
    expect(await within(dialog).findByText(/Step 2 of 3/)).toBeInTheDocument();
    const qr = await within(dialog).findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
    expect(within(dialog).getByRole('textbox', { name: /^Authentication code/ })).toHaveFocus();
    const key = within(dialog).getByRole('textbox', { name: 'Setup key' });
    expect(key).toHaveValue('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    await user.click(within(dialog).getByRole('button', { name: 'Copy setup key' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    const code = within(dialog).getByRole('textbox', { name: /^Authentication code/ });
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');

    await user.type(code, '12345');
    await user.click(within(dialog).getByRole('button', { name: 'Turn On' }));
    expect(within(dialog).getByText('Authentication code must be the 6 digits your authenticator app shows')).toBeInTheDocument();
    expect(sent('/enable')).toEqual([]);
    await user.clear(code);
    await user.type(code, '654 321');
    await user.click(within(dialog).getByRole('button', { name: 'Turn On' }));
    expect(await within(dialog).findByText('Authentication code is not the current code from your authenticator app')).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, `${CURRENT_CODE.slice(0, 3)} ${CURRENT_CODE.slice(3)}`);
    await user.click(within(dialog).getByRole('button', { name: 'Turn On' }));

    // Step 3: the ten codes, shown this once, to copy or download.
    expect(await within(dialog).findByText(/Step 3 of 3/)).toBeInTheDocument();
    expect(within(dialog).getByText('Save your recovery codes now')).toBeInTheDocument();
    expect(dialog).toHaveTextContent(/shown only this once/);
    const list = within(dialog).getByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(recoveryCodes('a'));
    await user.click(within(dialog).getByRole('button', { name: 'Copy All' }));
    expect(await navigator.clipboard.readText()).toBe(recoveryCodes('a').join('\n'));
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(saved.map((s) => s.name)).toEqual(['kidogo-recovery-codes.txt']);
    const text = await saved[0]!.blob.text();
    expect(text).toMatch(/^Kidogo recovery codes for amina\n/);
    expect(text).toContain(`\n${recoveryCodes('a').join('\n')}\n`);

    expect(sent('/setup')).toEqual([{ password: 'not-it' }, { password: PASSWORD }]);
    expect(sent('/enable')).toEqual([{ code: '654321' }, { code: CURRENT_CODE }]);

    // The card reads the status again behind the modal.
    expect(await within(card).findByText('On')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Set Up Two-Factor Sign-In' })).not.toBeInTheDocument());
    expect(within(card).getByTestId('recovery-codes-left')).toHaveTextContent(/^10 recovery codes left$/);
    expect(within(card).queryByRole('button', { name: 'Set Up' })).not.toBeInTheDocument();
  });

  it('shows the QR code of exactly the otpauth URL it was given', async () => {
    const QRCode = await import('qrcode');
    const expected = await QRCode.toString(OTPAUTH_URL, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
    const user = userEvent.setup();
    const { card } = await openCard();
    await user.click(await within(card).findByRole('button', { name: 'Set Up' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set Up Two-Factor Sign-In' });
    await user.type(passwordBox(dialog), PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    const qr = await within(dialog).findByRole('img', { name: 'QR code for your authenticator app' });
    expect(decodeURIComponent(qr.getAttribute('src')!.replace(/^data:image\/svg\+xml;charset=utf-8,/, ''))).toBe(expected);
  });

  it('shows when it was turned on and how many recovery codes are left, warning when few are', async () => {
    const { card } = await openCard({ enabled: true, enabled_at: '2026-11-02T08:00:00Z', recovery_codes_left: 7 });
    expect(await within(card).findByText('On')).toBeInTheDocument();
    expect(within(card).getByRole('time')).toHaveAttribute('dateTime', '2026-11-02T08:00:00.000Z');
    expect(card).toHaveTextContent(/On since/);
    expect(within(card).getByTestId('recovery-codes-left')).toHaveTextContent(/^7 recovery codes left$/);
    expect(within(card).getByTestId('recovery-codes-left').getAttribute('style') ?? '').not.toMatch(/yellow/);
    expect(within(card).getByRole('button', { name: 'New Recovery Codes' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Turn Off' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Set Up' })).not.toBeInTheDocument();
  });

  it.each([
    [3, '3 recovery codes left: make new ones before you run out'],
    [1, '1 recovery code left: make new ones before you run out'],
    [0, '0 recovery codes left: make new ones'],
  ])('warns in yellow with %i recovery codes left', async (left, text) => {
    const { card } = await openCard({ enabled: true, enabled_at: '2026-11-02T08:00:00Z', recovery_codes_left: left });
    const shown = await within(card).findByTestId('recovery-codes-left');
    expect(shown).toHaveTextContent(new RegExp(`^${text}$`));
    expect(shown.getAttribute('style')).toMatch(/--mantine-color-yellow-8/);
  });

  it('turns it off after the password, with a red confirm', async () => {
    const user = userEvent.setup();
    const { card, sent } = await openCard({ enabled: true, enabled_at: '2026-11-02T08:00:00Z', recovery_codes_left: 9 });
    await user.click(await within(card).findByRole('button', { name: 'Turn Off' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor sign-in?' });
    expect(dialog).toHaveTextContent(/You will sign in with your password only, and your recovery codes stop working/);
    const confirm = within(dialog).getByRole('button', { name: 'Turn Off' });
    expect(confirm.getAttribute('style') ?? '').toMatch(/red/);
    await user.type(passwordBox(dialog), 'wrong-one');
    await user.click(confirm);
    expect(await within(dialog).findByText('Current password is incorrect')).toBeInTheDocument();
    await user.clear(passwordBox(dialog));
    await user.type(passwordBox(dialog), PASSWORD);
    await user.click(confirm);
    expect(await screen.findByText('Two-factor sign-in is off')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Turn off two-factor sign-in?' })).not.toBeInTheDocument());
    expect(await within(card).findByText('Off')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Set Up' })).toBeInTheDocument();
    expect(sent('/disable')).toEqual([{ password: 'wrong-one' }, { password: PASSWORD }]);
  });

  it('makes new recovery codes after the password and shows them once', async () => {
    const user = userEvent.setup();
    const { card, sent, api } = await openCard({ enabled: true, enabled_at: '2026-11-02T08:00:00Z', recovery_codes_left: 2 });
    api.state.sets = 1;
    await user.click(await within(card).findByRole('button', { name: 'New Recovery Codes' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Recovery Codes' });
    expect(dialog).toHaveTextContent(/10 new recovery codes replace the ones you have/);
    await user.type(passwordBox(dialog), PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Make New Codes' }));
    const list = await within(dialog).findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(recoveryCodes('b'));
    expect(within(dialog).getByText('Save your recovery codes now')).toBeInTheDocument();
    expect(sent('/recovery-codes')).toEqual([{ password: PASSWORD }]);
    await waitFor(() => expect(within(card).getByTestId('recovery-codes-left')).toHaveTextContent(/^10 recovery codes left$/));
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New Recovery Codes' })).not.toBeInTheDocument());
  });

  it('shows a refusal that names no field as the API words it, in the dialog', async () => {
    const user = userEvent.setup();
    const { card, api } = await openCard();
    await user.click(await within(card).findByRole('button', { name: 'Set Up' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set Up Two-Factor Sign-In' });
    await user.type(passwordBox(dialog), PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await within(dialog).findByText(/Step 2 of 3/);
    // The pending setup is gone meanwhile (turned on and off in another tab, say).
    api.state.pending = false;
    await user.type(within(dialog).getByRole('textbox', { name: /^Authentication code/ }), CURRENT_CODE);
    await user.click(within(dialog).getByRole('button', { name: 'Turn On' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to turn on two-factor sign-in');
    expect(alert).toHaveTextContent('Set up two-factor sign-in first');
    expect(within(card).getByText('Off')).toBeInTheDocument();
  });

  it('cannot be turned off where the organization requires it: an owner sees so at once', async () => {
    seedSession({ user: buildUser({ user_id: 7, username: 'amina', role: 'owner' }) });
    const api = twoFactorApi({ enabled: true, enabled_at: '2026-11-02T08:00:00Z', recovery_codes_left: 9 });
    mockSettingsApi(api.handler, [], undefined, { require_two_factor: true, users_without_two_factor: 0 });
    renderApp('/settings');
    const card = await screen.findByRole('region', { name: 'Two-Factor Sign-In' });
    expect(await within(card).findByTestId('two-factor-required-note')).toHaveTextContent('Required by your organization');
    expect(within(card).getByRole('button', { name: 'Turn Off' })).toBeDisabled();
    expect(within(card).getByRole('button', { name: 'New Recovery Codes' })).toBeEnabled();
  });

  it('cannot be turned off where the organization requires it: staff learn it from the refusal, then the card says so', async () => {
    const user = userEvent.setup();
    const { card, api, calls } = await openCard({ enabled: true, enabled_at: '2026-11-02T08:00:00Z', recovery_codes_left: 9 });
    api.state.requiredByOrganization = true;
    await user.click(await within(card).findByRole('button', { name: 'Turn Off' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor sign-in?' });
    await user.type(passwordBox(dialog), PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Turn Off' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to turn off two-factor sign-in');
    expect(alert).toHaveTextContent(REQUIRED_CANNOT_TURN_OFF);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(card).getByText('On')).toBeInTheDocument();
    expect(within(card).getByTestId('two-factor-required-note')).toHaveTextContent('Required by your organization');
    expect(within(card).getByRole('button', { name: 'Turn Off' })).toBeDisabled();
    // Staff may not read the organization's rule: it was never asked.
    expect(calls.some((c) => c.url.startsWith('/payg/settings/security'))).toBe(false);
  });
});
