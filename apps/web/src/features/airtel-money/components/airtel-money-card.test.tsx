import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockSettingsApi } from '@/features/settings/testing/mock-settings-api';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { AIRTEL_MONEY_NOT_SET_UP, airtelMoneySettingsHandler, buildAirtelMoneySettings } from '../testing/mock-airtel-money-api';

const CLIENT_ID = 'kidogo-ug-4f2a9c';
const CALLBACK_URL = 'https://kidogo.example.com/payg/external/airtel-money/callback';
const signInAs = (role: 'owner' | 'admin' | 'staff') => seedSession({ user: buildUser({ role }) });
const card = () => screen.findByRole('region', { name: 'Airtel Money' });
const puts = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'PUT' && c.url === '/payg/settings/airtel-money').map((c) => JSON.parse(c.body!) as unknown);

describe('Airtel Money card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is not shown to staff, nor asked for', async () => {
    signInAs('staff');
    const { calls } = mockSettingsApi(airtelMoneySettingsHandler());
    renderApp('/settings');
    await screen.findByRole('region', { name: 'Change Password' });
    expect(screen.queryByRole('region', { name: 'Airtel Money' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/payg/settings/airtel-money'))).toBe(false);
  });

  it('says what it does, shows the saved set-up with its secret masked, and the callback URL to set on the Airtel app', async () => {
    signInAs('owner');
    mockSettingsApi(airtelMoneySettingsHandler());
    renderApp('/settings');
    const c = await card();
    expect(within(c).getByText(/customers in Kenya, Uganda, Tanzania, Rwanda, Zambia, Malawi and more/)).toBeInTheDocument();
    expect(within(c).getByText(/Kidogo confirms each result with Airtel before recording it/)).toBeInTheDocument();
    const market = await within(c).findByRole('combobox', { name: 'Market' });
    expect(market).toHaveValue('UG');
    const options = within(market).getAllByRole('option').map((o) => o.textContent);
    expect(options).toHaveLength(14);
    expect(options.slice(0, 6)).toEqual(['Kenya (KES)', 'Uganda (UGX)', 'Tanzania (TZS)', 'Rwanda (RWF)', 'Zambia (ZMW)', 'Malawi (MWK)']);
    expect(within(c).getByText('Requests ask for UGX, from Airtel Money wallets in Uganda (+256 numbers)')).toBeInTheDocument();
    expect(within(c).getByRole('combobox', { name: 'Airtel System' })).toHaveValue('production');
    expect(within(c).getByText("Airtel's live system (openapi.airtel.africa): real money")).toBeInTheDocument();
    expect(within(c).getByRole('textbox', { name: 'Client ID' })).toHaveValue(CLIENT_ID);
    expect(within(c).getByLabelText('Client Secret')).toHaveValue('c2Vj••••dHM1');
    expect(within(c).getByText('Saved (c2Vj••••dHM1): leave it as it is to keep it')).toBeInTheDocument();
    expect(within(c).getByRole('switch', { name: 'Active: staff can ask customers to pay with Airtel Money' })).toBeChecked();
    expect(within(c).getByText('Ready')).toBeInTheDocument();
    expect(within(c).getByTestId('airtel-money-callback')).toHaveTextContent(CALLBACK_URL);
    expect(within(c).getByRole('button', { name: 'Copy callback URL' })).toBeInTheDocument();
    expect(within(c).queryByTestId('airtel-money-no-callback')).not.toBeInTheDocument();
  });

  it('shows why requests cannot be sent when it is not ready, and that there is no callback URL without PUBLIC_URL', async () => {
    const problem =
      'PUBLIC_URL is not set: Airtel could not tell this installation that a customer paid. Its administrator sets PUBLIC_URL to the https address the internet reaches it at.';
    signInAs('admin');
    mockSettingsApi(airtelMoneySettingsHandler(buildAirtelMoneySettings({ ready: false, callback_url: null, problem })));
    renderApp('/settings');
    const c = await card();
    expect(await within(c).findByText('Payment requests cannot be sent yet')).toBeInTheDocument();
    expect(within(c).getByText(problem)).toBeInTheDocument();
    expect(within(c).queryByText('Ready')).not.toBeInTheDocument();
    expect(within(c).queryByTestId('airtel-money-callback')).not.toBeInTheDocument();
    expect(within(c).getByTestId('airtel-money-no-callback')).toHaveTextContent("No callback URL to give Airtel: this server's PUBLIC_URL is not set.");
  });

  it('checks the fields before sending: the client id as Airtel writes one, and the secret the first time', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(airtelMoneySettingsHandler(AIRTEL_MONEY_NOT_SET_UP));
    renderApp('/settings');
    const c = await card();
    expect(await within(c).findByText('Airtel Money is not set up: an owner or admin sets it up in Settings → Airtel Money')).toBeInTheDocument();
    expect(within(c).getByRole('combobox', { name: 'Market' })).toHaveValue('KE');
    const system = within(c).getByRole('combobox', { name: 'Airtel System' });
    expect(system).toHaveValue('staging');
    expect(within(system).getAllByRole('option').map((o) => o.textContent)).toEqual(['Staging (test money)', 'Production']);
    expect(within(c).getByText("Airtel's test system (openapiuat.airtel.africa): no real money moves")).toBeInTheDocument();
    // The callback URL is known before anything is saved: it goes on the Airtel app as it is created.
    expect(within(c).getByTestId('airtel-money-callback')).toHaveTextContent(CALLBACK_URL);
    // Nothing saved yet: there is nothing to test.
    expect(within(c).getByRole('button', { name: 'Test Connection' })).toBeDisabled();
    await user.click(within(c).getByRole('button', { name: 'Save Airtel Money' }));
    expect(within(c).getByText('Client ID is required')).toBeInTheDocument();
    expect(within(c).getByText('Client Secret is required')).toBeInTheDocument();

    const clientId = within(c).getByRole('textbox', { name: 'Client ID' });
    await user.type(clientId, 'my app id');
    await user.click(within(c).getByRole('button', { name: 'Save Airtel Money' }));
    expect(within(c).getByText('Client ID must be the client id Airtel gave (letters, digits, dots, dashes and underscores)')).toBeInTheDocument();
    expect(puts(calls)).toEqual([]);

    await user.clear(clientId);
    await user.type(clientId, ` ${CLIENT_ID} `);
    await user.type(within(c).getByLabelText(/^Client Secret/), 'secret-for-airtel-0001');
    await user.selectOptions(within(c).getByRole('combobox', { name: 'Market' }), 'Uganda (UGX)');
    await user.selectOptions(within(c).getByRole('combobox', { name: 'Airtel System' }), 'Production');
    expect(within(c).getByText("Airtel's live system (openapi.airtel.africa): real money")).toBeInTheDocument();
    await user.click(within(c).getByRole('button', { name: 'Save Airtel Money' }));
    expect(await screen.findByText('Airtel Money settings saved')).toBeInTheDocument();
    expect(puts(calls)).toEqual([{ country: 'UG', environment: 'production', client_id: CLIENT_ID, client_secret: 'secret-for-airtel-0001', is_active: true }]);
    // Read back masked, and testable now.
    await waitFor(() => expect(within(c).getByLabelText(/^Client Secret/)).toHaveValue('secr••••0001'));
    expect(within(c).getByText('Requests ask for UGX, from Airtel Money wallets in Uganda (+256 numbers)')).toBeInTheDocument();
    expect(within(c).getByRole('button', { name: 'Test Connection' })).toBeEnabled();
  });

  it('keeps the saved secret when it is left masked', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(airtelMoneySettingsHandler());
    renderApp('/settings');
    const c = await card();
    await user.selectOptions(await within(c).findByRole('combobox', { name: 'Market' }), 'TZ');
    expect(within(c).getByText(/Test Connection tries the saved keys: save your changes first/)).toBeInTheDocument();
    await user.click(within(c).getByRole('switch', { name: 'Active: staff can ask customers to pay with Airtel Money' }));
    await user.click(within(c).getByRole('button', { name: 'Save Airtel Money' }));
    expect(await screen.findByText('Airtel Money settings saved: it is off')).toBeInTheDocument();
    expect(puts(calls)).toEqual([{ country: 'TZ', environment: 'production', client_id: CLIENT_ID, is_active: false }]);
    await waitFor(() => expect(within(c).getByText('Requests ask for TZS, from Airtel Money wallets in Tanzania (+255 numbers)')).toBeInTheDocument());
    expect(within(c).getByLabelText(/^Client Secret/)).toHaveValue('c2Vj••••dHM1');
  });

  it('sends the secret only when typed anew, replacing the masked one', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(airtelMoneySettingsHandler());
    renderApp('/settings');
    const c = await card();
    const secret = await within(c).findByLabelText(/^Client Secret/);
    await user.click(secret);
    // The masked value is selected on focus: typing replaces it.
    await user.keyboard('new-secret-2026');
    expect(secret).toHaveValue('new-secret-2026');
    expect(within(c).getByText('A new value replaces the saved one')).toBeInTheDocument();
    await user.click(within(c).getByRole('button', { name: 'Save Airtel Money' }));
    expect(await screen.findByText('Airtel Money settings saved')).toBeInTheDocument();
    expect(puts(calls)).toEqual([{ country: 'UG', environment: 'production', client_id: CLIENT_ID, client_secret: 'new-secret-2026', is_active: true }]);
    await waitFor(() => expect(within(c).getByLabelText(/^Client Secret/)).toHaveValue('new-••••2026'));
  });

  it("shows the server's refusal by its field and in the banner", async () => {
    const user = userEvent.setup();
    signInAs('owner');
    mockSettingsApi((call, path) =>
      path === '/payg/settings/airtel-money' && call.method === 'PUT'
        ? jsonResponse(400, { message: 'client_secret: is required', errors: [{ field: 'client_secret', message: 'is required' }] })
        : airtelMoneySettingsHandler()(call, path),
    );
    renderApp('/settings');
    const c = await card();
    await user.click(await within(c).findByRole('button', { name: 'Save Airtel Money' }));
    expect(await within(c).findByText('Failed to save Airtel Money settings')).toBeInTheDocument();
    expect(within(c).getByText('Client Secret is required')).toBeInTheDocument();
  });

  it('tests the connection and says what Airtel answered, good or bad', async () => {
    const user = userEvent.setup();
    signInAs('owner');
    const { calls } = mockSettingsApi(airtelMoneySettingsHandler());
    const view = renderApp('/settings');
    let c = await card();
    await user.click(await within(c).findByRole('button', { name: 'Test Connection' }));
    expect(await within(c).findByText('Connection works')).toBeInTheDocument();
    expect(within(c).getByText('Airtel accepted the client id and secret (production)')).toBeInTheDocument();
    expect(calls.filter((x) => x.method === 'POST' && x.url === '/payg/settings/airtel-money/test')).toHaveLength(1);
    view.unmount();

    mockSettingsApi(
      airtelMoneySettingsHandler(buildAirtelMoneySettings({ environment: 'staging' }), {
        ok: false,
        message: 'Airtel did not accept the client id and secret (staging): the client id or client secret is wrong',
      }),
    );
    renderApp('/settings');
    c = await card();
    await user.click(await within(c).findByRole('button', { name: 'Test Connection' }));
    expect(await within(c).findByText('Connection test failed')).toBeInTheDocument();
    expect(within(c).getByText('Airtel did not accept the client id and secret (staging): the client id or client secret is wrong')).toBeInTheDocument();
  });

  it('sits next to the MTN MoMo card', async () => {
    signInAs('admin');
    mockSettingsApi(airtelMoneySettingsHandler());
    renderApp('/settings');
    const airtel = await card();
    const mtn = screen.getByRole('region', { name: 'MTN MoMo' });
    expect(mtn.nextElementSibling).toBe(airtel);
  });
});
