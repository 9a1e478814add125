import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockSettingsApi } from '@/features/settings/testing/mock-settings-api';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { buildMtnMomoSettings, MTN_MOMO_NOT_SET_UP, mtnMomoSettingsHandler } from '../testing/mock-mtn-momo-api';

const API_USER = '3f1c2b9e-7d4a-4c1e-9b8f-2a6d5e4c3b21';
const signInAs = (role: 'owner' | 'admin' | 'staff') => seedSession({ user: buildUser({ role }) });
const card = () => screen.findByRole('region', { name: 'MTN MoMo' });
const puts = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'PUT' && c.url === '/payg/settings/mtn-momo').map((c) => JSON.parse(c.body!) as unknown);

describe('MTN MoMo card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is not shown to staff, nor asked for', async () => {
    signInAs('staff');
    const { calls } = mockSettingsApi(mtnMomoSettingsHandler());
    renderApp('/settings');
    await screen.findByRole('region', { name: 'Change Password' });
    expect(screen.queryByRole('region', { name: 'MTN MoMo' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/payg/settings/mtn-momo'))).toBe(false);
  });

  it('says what it does, shows the saved set-up with its keys masked, and the callback host to give MTN', async () => {
    signInAs('owner');
    mockSettingsApi(mtnMomoSettingsHandler());
    renderApp('/settings');
    const c = await card();
    expect(within(c).getByText(/their phone asks them to approve the amount with their MoMo PIN/)).toBeInTheDocument();
    const market = await within(c).findByRole('combobox', { name: 'Market' });
    expect(market).toHaveValue('mtnuganda');
    expect(within(market).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Uganda (UGX)',
      'Rwanda (RWF)',
      'Zambia (ZMW)',
      'Ghana (GHS)',
      'Sandbox: test money (EUR)',
    ]);
    expect(within(c).getByText('Requests ask for UGX, from MTN MoMo wallets in Uganda')).toBeInTheDocument();
    expect(within(c).getByRole('textbox', { name: 'API User' })).toHaveValue(API_USER);
    expect(within(c).getByLabelText('API Key')).toHaveValue('9c0e••••41fa');
    expect(within(c).getByLabelText('Subscription Key')).toHaveValue('a1b2••••e5f6');
    expect(within(c).getByText('Saved (a1b2••••e5f6): leave it as it is to keep it')).toBeInTheDocument();
    expect(within(c).getByRole('switch', { name: 'Active: staff can ask customers to pay with MTN MoMo' })).toBeChecked();
    expect(within(c).getByText('Ready')).toBeInTheDocument();
    expect(within(c).getByTestId('mtn-momo-callback-host')).toHaveTextContent('kidogo.example.com');
    expect(within(c).getByRole('button', { name: 'Copy callback host' })).toBeInTheDocument();
    expect(within(c).getByTestId('mtn-momo-callback')).toHaveTextContent('https://kidogo.example.com/payg/external/mtn-momo');
  });

  it('shows why requests cannot be sent when it is not ready', async () => {
    signInAs('admin');
    mockSettingsApi(
      mtnMomoSettingsHandler(
        buildMtnMomoSettings({ ready: false, callback_base: null, callback_host: null, problem: 'PUBLIC_URL is not set: MTN cannot post the results to this server' }),
      ),
    );
    renderApp('/settings');
    const c = await card();
    expect(await within(c).findByText('Payment requests cannot be sent yet')).toBeInTheDocument();
    expect(within(c).getByText('PUBLIC_URL is not set: MTN cannot post the results to this server')).toBeInTheDocument();
    expect(within(c).queryByText('Ready')).not.toBeInTheDocument();
    expect(within(c).queryByTestId('mtn-momo-callback-host')).not.toBeInTheDocument();
  });

  it('checks the fields before sending: the API user is a UUID, and both keys are needed the first time', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(mtnMomoSettingsHandler(MTN_MOMO_NOT_SET_UP));
    renderApp('/settings');
    const c = await card();
    expect(await within(c).findByText('MTN MoMo is not set up: enter your API user and keys')).toBeInTheDocument();
    expect(within(c).getByRole('combobox', { name: 'Market' })).toHaveValue('sandbox');
    expect(within(c).getByText("MTN's test system (momodeveloper.mtn.com): no real money moves")).toBeInTheDocument();
    // Nothing saved yet: there is nothing to test.
    expect(within(c).getByRole('button', { name: 'Test Connection' })).toBeDisabled();
    await user.click(within(c).getByRole('button', { name: 'Save MTN MoMo' }));
    expect(within(c).getByText('API User is required')).toBeInTheDocument();
    expect(within(c).getByText('API Key is required')).toBeInTheDocument();
    expect(within(c).getByText('Subscription Key is required')).toBeInTheDocument();

    const apiUser = within(c).getByRole('textbox', { name: 'API User' });
    await user.type(apiUser, 'not-a-uuid');
    await user.click(within(c).getByRole('button', { name: 'Save MTN MoMo' }));
    expect(within(c).getByText('API User must be the API user MTN gave (a UUID: 8-4-4-4-12 hexadecimal digits)')).toBeInTheDocument();
    expect(puts(calls)).toEqual([]);

    await user.clear(apiUser);
    await user.type(apiUser, ` ${API_USER} `);
    await user.type(within(c).getByLabelText(/^API Key/), 'apikey-0123456789');
    await user.type(within(c).getByLabelText(/^Subscription Key/), 'subkey-abcdefgh');
    await user.selectOptions(within(c).getByRole('combobox', { name: 'Market' }), 'mtnzambia');
    await user.click(within(c).getByRole('button', { name: 'Save MTN MoMo' }));
    expect(await screen.findByText('MTN MoMo settings saved')).toBeInTheDocument();
    expect(puts(calls)).toEqual([
      { target_environment: 'mtnzambia', api_user: API_USER, api_key: 'apikey-0123456789', subscription_key: 'subkey-abcdefgh', is_active: true },
    ]);
    // Read back masked, and testable now.
    await waitFor(() => expect(within(c).getByLabelText(/^API Key/)).toHaveValue('apik••••6789'));
    expect(within(c).getByText('Requests ask for ZMW, from MTN MoMo wallets in Zambia')).toBeInTheDocument();
    expect(within(c).getByRole('button', { name: 'Test Connection' })).toBeEnabled();
  });

  it('keeps the saved keys when they are left masked, and sends only the one typed anew', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(mtnMomoSettingsHandler());
    renderApp('/settings');
    const c = await card();
    const subscription = await within(c).findByLabelText(/^Subscription Key/);
    await user.click(subscription);
    // The masked value is selected on focus: typing replaces it.
    await user.keyboard('new-subscription-2026');
    expect(subscription).toHaveValue('new-subscription-2026');
    expect(within(c).getByText('A new value replaces the saved one')).toBeInTheDocument();
    expect(within(c).getByText(/Test Connection tries the saved keys: save your changes first/)).toBeInTheDocument();
    await user.click(within(c).getByRole('switch', { name: 'Active: staff can ask customers to pay with MTN MoMo' }));
    await user.click(within(c).getByRole('button', { name: 'Save MTN MoMo' }));
    expect(await screen.findByText('MTN MoMo settings saved: it is off')).toBeInTheDocument();
    expect(puts(calls)).toEqual([{ target_environment: 'mtnuganda', api_user: API_USER, subscription_key: 'new-subscription-2026', is_active: false }]);
    await waitFor(() => expect(within(c).getByLabelText(/^Subscription Key/)).toHaveValue('new-••••2026'));
    expect(within(c).getByLabelText(/^API Key/)).toHaveValue('9c0e••••41fa');
  });

  it("shows the server's refusal by its field and in the banner", async () => {
    const user = userEvent.setup();
    signInAs('owner');
    mockSettingsApi((call, path) =>
      path === '/payg/settings/mtn-momo' && call.method === 'PUT'
        ? jsonResponse(400, { message: 'api_key: is required', errors: [{ field: 'api_key', message: 'is required' }] })
        : mtnMomoSettingsHandler()(call, path),
    );
    renderApp('/settings');
    const c = await card();
    await user.click(await within(c).findByRole('button', { name: 'Save MTN MoMo' }));
    expect(await within(c).findByText('Failed to save MTN MoMo settings')).toBeInTheDocument();
    expect(within(c).getByText('API Key is required')).toBeInTheDocument();
  });

  it('tests the connection and says what MTN answered, good or bad', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(mtnMomoSettingsHandler());
    const view = renderApp('/settings');
    let c = await card();
    await user.click(await within(c).findByRole('button', { name: 'Test Connection' }));
    expect(await within(c).findByText('Connection works')).toBeInTheDocument();
    expect(within(c).getByText('MTN accepted the API user and keys (mtnuganda)')).toBeInTheDocument();
    expect(calls.filter((x) => x.method === 'POST' && x.url === '/payg/settings/mtn-momo/test')).toHaveLength(1);
    view.unmount();

    mockSettingsApi(mtnMomoSettingsHandler(buildMtnMomoSettings(), { ok: false, message: 'MTN did not accept the keys (sandbox): 401 Access denied' }));
    renderApp('/settings');
    c = await card();
    await user.click(await within(c).findByRole('button', { name: 'Test Connection' }));
    expect(await within(c).findByText('Connection test failed')).toBeInTheDocument();
    expect(within(c).getByText('MTN did not accept the keys (sandbox): 401 Access denied')).toBeInTheDocument();
  });

  it('sits next to the M-Pesa Express card', async () => {
    signInAs('admin');
    mockSettingsApi(mtnMomoSettingsHandler());
    renderApp('/settings');
    const mtn = await card();
    const mpesa = screen.getByRole('region', { name: 'M-Pesa Express' });
    expect(mpesa.nextElementSibling).toBe(mtn);
  });
});
