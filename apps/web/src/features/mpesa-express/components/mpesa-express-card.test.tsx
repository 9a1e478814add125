import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockSettingsApi } from '@/features/settings/testing/mock-settings-api';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { buildMpesaExpressSettings, mpesaExpressSettingsHandler, NOT_SET_UP } from '../testing/mock-mpesa-express-api';

const signInAs = (role: 'owner' | 'admin' | 'staff') => seedSession({ user: buildUser({ role }) });
const card = () => screen.findByRole('region', { name: 'M-Pesa Express' });
const puts = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'PUT' && c.url === '/payg/settings/mpesa-express').map((c) => JSON.parse(c.body!) as unknown);

describe('M-Pesa Express card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is not shown to staff, nor asked for', async () => {
    signInAs('staff');
    const { calls } = mockSettingsApi(mpesaExpressSettingsHandler());
    renderApp('/settings');
    await screen.findByRole('region', { name: 'Change Password' });
    expect(screen.queryByRole('region', { name: 'M-Pesa Express' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/payg/settings/mpesa-express'))).toBe(false);
  });

  it('says what it does, shows the saved set-up with its secrets masked, and where Safaricom posts results', async () => {
    signInAs('owner');
    mockSettingsApi(mpesaExpressSettingsHandler());
    renderApp('/settings');
    const c = await card();
    expect(within(c).getByText(/their phone shows M-Pesa's prompt for the amount, to your paybill/)).toBeInTheDocument();
    expect(await within(c).findByRole('textbox', { name: 'Short Code' })).toHaveValue('174379');
    expect(within(c).getByRole('radio', { name: 'Sandbox' })).toBeChecked();
    expect(within(c).getByRole('radio', { name: 'Paybill' })).toBeChecked();
    expect(within(c).queryByRole('textbox', { name: 'Till Number' })).not.toBeInTheDocument();
    expect(within(c).getByLabelText('Consumer Key')).toHaveValue('GTWA••••Xk2q');
    expect(within(c).getByLabelText('Consumer Secret')).toHaveValue('Rf8s••••9aZp');
    expect(within(c).getByLabelText('Passkey')).toHaveValue('bfb2••••c919');
    expect(within(c).getByText('Saved (bfb2••••c919): leave it as it is to keep it')).toBeInTheDocument();
    expect(within(c).getByRole('switch', { name: 'Active: staff can ask customers to pay' })).toBeChecked();
    expect(within(c).getByText('Ready')).toBeInTheDocument();
    expect(within(c).getByTestId('mpesa-express-callback')).toHaveTextContent('https://kidogo.example.com/payg/external/mpesa-express');
  });

  it('shows why requests cannot be sent when it is not ready', async () => {
    signInAs('admin');
    mockSettingsApi(
      mpesaExpressSettingsHandler(
        buildMpesaExpressSettings({ ready: false, callback_base: null, problem: 'PUBLIC_URL is not set: Safaricom cannot post the results to this server' }),
      ),
    );
    renderApp('/settings');
    const c = await card();
    expect(await within(c).findByText('Payment requests cannot be sent yet')).toBeInTheDocument();
    expect(within(c).getByText('PUBLIC_URL is not set: Safaricom cannot post the results to this server')).toBeInTheDocument();
    expect(within(c).queryByText('Ready')).not.toBeInTheDocument();
    expect(within(c).queryByTestId('mpesa-express-callback')).not.toBeInTheDocument();
  });

  it("checks the fields before sending: the short code's digits, a till's number, and every key the first time", async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(mpesaExpressSettingsHandler(NOT_SET_UP));
    renderApp('/settings');
    const c = await card();
    expect(await within(c).findByText('M-Pesa Express is not set up: enter your short code and Daraja keys')).toBeInTheDocument();
    // Nothing saved yet: there is nothing to test.
    expect(within(c).getByRole('button', { name: 'Test Connection' })).toBeDisabled();
    await user.click(within(c).getByRole('button', { name: 'Save M-Pesa Express' }));
    expect(within(c).getByText('Short Code is required')).toBeInTheDocument();
    expect(within(c).getByText('Consumer Key is required')).toBeInTheDocument();
    expect(within(c).getByText('Consumer Secret is required')).toBeInTheDocument();
    expect(within(c).getByText('Passkey is required')).toBeInTheDocument();

    await user.type(within(c).getByRole('textbox', { name: 'Short Code' }), '12a4');
    await user.click(within(c).getByRole('radio', { name: 'Till (Buy Goods)' }));
    await user.click(within(c).getByRole('button', { name: 'Save M-Pesa Express' }));
    expect(within(c).getByText('Short Code must be the paybill or store number (5 to 7 digits)')).toBeInTheDocument();
    expect(within(c).getByText('Till Number is required for a till')).toBeInTheDocument();
    await user.type(within(c).getByRole('textbox', { name: 'Till Number' }), '12345678');
    await user.click(within(c).getByRole('button', { name: 'Save M-Pesa Express' }));
    expect(within(c).getByText('Till Number must be a till number (5 to 7 digits)')).toBeInTheDocument();
    expect(puts(calls)).toEqual([]);

    const shortCode = within(c).getByRole('textbox', { name: 'Short Code' });
    await user.clear(shortCode);
    await user.type(shortCode, '600100');
    const till = within(c).getByRole('textbox', { name: 'Till Number' });
    await user.clear(till);
    await user.type(till, '5123456');
    await user.type(within(c).getByLabelText(/^Consumer Key/), 'key-abcdefgh');
    await user.type(within(c).getByLabelText(/^Consumer Secret/), 'secret-abcdefgh');
    await user.type(within(c).getByLabelText(/^Passkey/), 'passkey-abcdefgh');
    await user.click(within(c).getByRole('radio', { name: 'Production' }));
    await user.click(within(c).getByRole('button', { name: 'Save M-Pesa Express' }));
    expect(await screen.findByText('M-Pesa Express settings saved')).toBeInTheDocument();
    expect(puts(calls)).toEqual([
      {
        environment: 'production',
        transaction_type: 'CustomerBuyGoodsOnline',
        short_code: '600100',
        till_number: '5123456',
        consumer_key: 'key-abcdefgh',
        consumer_secret: 'secret-abcdefgh',
        passkey: 'passkey-abcdefgh',
        is_active: true,
      },
    ]);
    // Read back masked, and testable now.
    await waitFor(() => expect(within(c).getByLabelText(/^Passkey/)).toHaveValue('pass••••efgh'));
    expect(within(c).getByRole('button', { name: 'Test Connection' })).toBeEnabled();
  });

  it('keeps the saved secrets when they are left masked, and sends only the one typed anew', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(mpesaExpressSettingsHandler());
    renderApp('/settings');
    const c = await card();
    const passkey = await within(c).findByLabelText(/^Passkey/);
    await user.click(passkey);
    // The masked value is selected on focus: typing replaces it.
    await user.keyboard('new-passkey-2026');
    expect(passkey).toHaveValue('new-passkey-2026');
    expect(within(c).getByText('A new value replaces the saved one')).toBeInTheDocument();
    await user.click(within(c).getByRole('switch', { name: 'Active: staff can ask customers to pay' }));
    await user.click(within(c).getByRole('button', { name: 'Save M-Pesa Express' }));
    expect(await screen.findByText('M-Pesa Express settings saved: it is off')).toBeInTheDocument();
    expect(puts(calls)).toEqual([
      { environment: 'sandbox', transaction_type: 'CustomerPayBillOnline', short_code: '174379', passkey: 'new-passkey-2026', is_active: false },
    ]);
    await waitFor(() => expect(within(c).getByLabelText(/^Consumer Key/)).toHaveValue('GTWA••••Xk2q'));
    expect(within(c).getByLabelText(/^Passkey/)).toHaveValue('new-••••2026');
  });

  it("shows the server's refusal by its field and in the banner", async () => {
    const user = userEvent.setup();
    signInAs('owner');
    mockSettingsApi((call, path) =>
      path === '/payg/settings/mpesa-express' && call.method === 'PUT'
        ? jsonResponse(400, { message: 'consumer_key: is required the first time', errors: [{ field: 'consumer_key', message: 'is required the first time' }] })
        : mpesaExpressSettingsHandler()(call, path),
    );
    renderApp('/settings');
    const c = await card();
    await user.click(await within(c).findByRole('button', { name: 'Save M-Pesa Express' }));
    expect(await within(c).findByText('Failed to save M-Pesa Express settings')).toBeInTheDocument();
    expect(within(c).getByText('Consumer Key is required the first time')).toBeInTheDocument();
  });

  it('tests the connection and says what Safaricom answered, good or bad', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(mpesaExpressSettingsHandler());
    const view = renderApp('/settings');
    let c = await card();
    await user.click(await within(c).findByRole('button', { name: 'Test Connection' }));
    expect(await within(c).findByText('Connection works')).toBeInTheDocument();
    expect(within(c).getByText('Safaricom accepted the keys (sandbox)')).toBeInTheDocument();
    expect(calls.filter((x) => x.method === 'POST' && x.url === '/payg/settings/mpesa-express/test')).toHaveLength(1);
    view.unmount();

    mockSettingsApi(mpesaExpressSettingsHandler(buildMpesaExpressSettings(), { ok: false, message: 'Safaricom refused the keys: Invalid Credentials' }));
    renderApp('/settings');
    c = await card();
    await user.click(await within(c).findByRole('button', { name: 'Test Connection' }));
    expect(await within(c).findByText('Connection test failed')).toBeInTheDocument();
    expect(within(c).getByText('Safaricom refused the keys: Invalid Credentials')).toBeInTheDocument();
  });
});
