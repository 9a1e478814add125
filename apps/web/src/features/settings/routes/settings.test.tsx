import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { maskKey } from '../components/api-key-card';
import { buildTeamUser, KEY, mockSettingsApi, NEW_KEY } from '../testing/mock-settings-api';

describe('settings page', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the system configuration with Online and Connected from /health', async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    mockSettingsApi();
    renderApp('/settings');
    const card = await screen.findByRole('region', { name: 'System Configuration' });
    expect(await within(card).findByText('Online')).toBeInTheDocument();
    expect(within(card).getByText('Connected')).toBeInTheDocument();
    expect(within(card).getByText(/\/payg$/)).toBeInTheDocument();
  });

  it("shows 'Failed to load configuration' with Retry when /health fails", async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    mockSettingsApi((_c, path) => (path === '/payg/health' ? jsonResponse(503, { message: 'down' }) : undefined));
    renderApp('/settings');
    expect(await screen.findByText('Failed to load configuration')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'System Configuration' })).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('opens at the card a link names (/settings#agent-commissions, from Agent Commissions)', async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    mockSettingsApi();
    const scrolled: Element[] = [];
    // jsdom has no scrollIntoView (the test setup gives elements one that does nothing): this one notes where the page opened.
    const original = HTMLElement.prototype.scrollIntoView;
    HTMLElement.prototype.scrollIntoView = function (this: HTMLElement) {
      scrolled.push(this);
    };
    try {
      renderApp('/settings#agent-commissions');
      const card = await screen.findByRole('region', { name: 'Agent Commissions' });
      await waitFor(() => expect(scrolled.map((e) => e.id)).toEqual(['agent-commissions']));
      expect(scrolled[0]).toContainElement(card);
    } finally {
      HTMLElement.prototype.scrollIntoView = original;
    }
  });

  it('hides the API key and SMS settings from staff', async () => {
    seedSession({ user: buildUser({ role: 'staff' }) });
    const { calls } = mockSettingsApi();
    renderApp('/settings');
    await screen.findByRole('region', { name: 'System Configuration' });
    expect(screen.queryByRole('region', { name: 'API Key' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'SMS Provider' })).not.toBeInTheDocument();
    // The warranties are the one organization setting staff read (Settings → Warranties, read-only to them).
    expect(calls.filter((c) => c.url.startsWith('/payg/settings/')).map((c) => `${c.method} ${c.url}`)).toEqual(['GET /payg/settings/warranties']);
  });

  it('keeps short labels whole on a phone: provider names wrap, the POST badge and team badges keep their width', async () => {
    // jsdom lays nothing out: these are the styles that let them fit at 390px (checked in a browser).
    seedSession({ user: buildUser({ user_id: 7, role: 'owner' }) });
    mockSettingsApi(undefined, [buildTeamUser({ user_id: 7, role: 'owner' }), buildTeamUser({ user_id: 8, username: 'brian', is_active: false })]);
    renderApp('/settings');
    const sms = await screen.findByRole('region', { name: 'SMS Provider' });
    for (const name of ["Africa's Talking", 'SMS Webhook']) {
      expect((await within(sms).findByText(name)).closest('label')).toHaveStyle({ whiteSpace: 'normal' });
    }
    const receiver = screen.getByRole('region', { name: 'Receiving Payments' });
    expect(within(receiver).getByText('POST')).toHaveStyle({ minWidth: 'max-content' });
    const team = screen.getByRole('region', { name: 'Team' });
    expect((await within(team).findByText('You')).closest('.mantine-Badge-root')).toHaveStyle({ minWidth: 'max-content' });
    const activeBadges = within(team).getAllByText(/^(Active|Inactive)$/, { selector: '.mantine-Badge-label' });
    expect(activeBadges).toHaveLength(2);
    for (const badge of activeBadges) {
      expect(badge.closest('.mantine-Badge-root')).toHaveStyle({ minWidth: 'max-content' });
    }
  });

  it('masks the key, reveals it, and rotates it only after confirmation', async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    const { calls } = mockSettingsApi();
    renderApp('/settings');
    const card = await screen.findByRole('region', { name: 'API Key' });
    const input = await within(card).findByRole('textbox', { name: 'API key' });
    expect(input).toHaveValue(maskKey(KEY));
    expect((input as HTMLInputElement).value).not.toContain(KEY.slice(4, 20));
    await userEvent.click(within(card).getByRole('button', { name: 'Reveal key' }));
    expect(input).toHaveValue(KEY);

    await userEvent.click(within(card).getByRole('button', { name: 'Rotate Key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate the API key?' });
    expect(calls.some((c) => c.url === '/payg/settings/api-key/rotate')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rotate Key' }));
    await waitFor(() => expect(input).toHaveValue(NEW_KEY));
    expect(calls.filter((c) => c.url === '/payg/settings/api-key/rotate' && c.method === 'POST')).toHaveLength(1);
  });

  it('saves an SMS webhook after checking its URL, leaving a blank secret out', async () => {
    seedSession({ user: buildUser({ role: 'admin' }) });
    const { calls } = mockSettingsApi();
    renderApp('/settings');
    const card = await screen.findByRole('region', { name: 'SMS Provider' });
    await userEvent.click(await within(card).findByText('SMS Webhook'));
    await userEvent.click(within(card).getByRole('button', { name: 'Save SMS Settings' }));
    expect(within(card).getByText('Webhook URL is required')).toBeInTheDocument();
    await userEvent.type(within(card).getByRole('textbox', { name: 'Webhook URL' }), 'ftp://nope');
    await userEvent.click(within(card).getByRole('button', { name: 'Save SMS Settings' }));
    expect(within(card).getByText('Enter an http(s) URL')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    const url = within(card).getByRole('textbox', { name: 'Webhook URL' });
    await userEvent.clear(url);
    await userEvent.type(url, 'https://sms.example.com/send');
    await userEvent.click(within(card).getByRole('button', { name: 'Save SMS Settings' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(JSON.parse(calls.find((c) => c.method === 'PUT')!.body!)).toEqual({
      provider: 'sms_webhook',
      config: { url: 'https://sms.example.com/send' },
      is_active: true,
      reply_language: 'en',
      text_name: null,
    });
    expect(await screen.findByText('SMS provider settings saved')).toBeInTheDocument();
  });

  it('turns sending on when a provider is chosen where there was none (the API reads none as inactive)', async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    const { calls } = mockSettingsApi((call, path) =>
      path === '/payg/settings/sms-provider' && call.method === 'GET'
        ? jsonResponse(200, { provider: 'none', config: {}, is_active: false, fallback: 'none', reply_language: 'en', text_name: null, updated_at: null })
        : undefined,
    );
    renderApp('/settings');
    const card = await screen.findByRole('region', { name: 'SMS Provider' });
    await userEvent.click(await within(card).findByText('SMS Webhook'));
    expect(within(card).getByRole('switch', { name: 'Send token replies through this provider' })).toBeChecked();
    await userEvent.type(within(card).getByRole('textbox', { name: 'Webhook URL' }), 'https://sms.example.com/send');
    await userEvent.click(within(card).getByRole('button', { name: 'Save SMS Settings' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(JSON.parse(calls.find((c) => c.method === 'PUT')!.body!)).toMatchObject({ provider: 'sms_webhook', is_active: true });
  });

  it('sends token replies in Kiswahili when chosen', async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    const { calls } = mockSettingsApi();
    renderApp('/settings');
    const card = await screen.findByRole('region', { name: 'SMS Provider' });
    const language = await within(card).findByRole('combobox', { name: 'Reply Language' });
    expect(language).toHaveValue('en');
    await userEvent.selectOptions(language, 'sw');
    await userEvent.click(within(card).getByRole('button', { name: 'Save SMS Settings' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(JSON.parse(calls.find((c) => c.method === 'PUT')!.body!)).toEqual({ provider: 'none', config: {}, is_active: true, reply_language: 'sw', text_name: null });
  });

  it("begins customers' texts with the organization's own name, checked before it is sent", async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    const { calls } = mockSettingsApi();
    renderApp('/settings');
    const card = await screen.findByRole('region', { name: 'SMS Provider' });
    const name = await within(card).findByRole('textbox', { name: 'Name in Texts' });
    expect(card).toHaveTextContent('What texts to customers begin with: "Kidogo: Hi Grace, payment of …". Empty: Kidogo.');
    await userEvent.type(name, 'Jua <Solar>');
    await userEvent.click(within(card).getByRole('button', { name: 'Save SMS Settings' }));
    expect(await within(card).findByText("Name in texts must be letters, digits, spaces and & - . ' only, starting with a letter or digit")).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    await userEvent.clear(name);
    await userEvent.type(name, 'Jua Solar');
    expect(card).toHaveTextContent('What texts to customers begin with: "Jua Solar: Hi Grace, payment of …".');
    await userEvent.click(within(card).getByRole('button', { name: 'Save SMS Settings' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(JSON.parse(calls.find((c) => c.method === 'PUT')!.body!)).toMatchObject({ text_name: 'Jua Solar' });
  });

  it('offers English, Kiswahili and French, and sends French when chosen', async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    const { calls } = mockSettingsApi();
    renderApp('/settings');
    const card = await screen.findByRole('region', { name: 'SMS Provider' });
    const language = await within(card).findByRole('combobox', { name: 'Reply Language' });
    expect(within(language).getAllByRole('option').map((o) => o.textContent)).toEqual(['English', 'Kiswahili', 'French']);
    await userEvent.selectOptions(language, 'fr');
    await userEvent.click(within(card).getByRole('button', { name: 'Save SMS Settings' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(JSON.parse(calls.find((c) => c.method === 'PUT')!.body!)).toMatchObject({ reply_language: 'fr' });
  });

  it('shows where to point forwarders: the receiver URL and the X-API-Key header', async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    mockSettingsApi();
    renderApp('/settings');
    const card = await screen.findByRole('region', { name: 'Receiving Payments' });
    expect(within(card).getAllByText(/\/payg\/external\/receive-phoneteletalk/).length).toBeGreaterThan(0);
    expect(within(card).getByText('X-API-Key: <your API key>')).toBeInTheDocument();
  });
});
