import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { buildReminders, mockSettingsApi } from '../testing/mock-settings-api';

describe('payment reminders card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  const card = () => screen.findByRole('region', { name: 'Payment Reminders' });

  it('shows the saved settings, the preview and how many were sent', async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    mockSettingsApi(undefined, [], buildReminders({ enabled: true, days_before: 2, send_hour: 8, sent_30_days: 1234, last_sent_at: '2026-11-20T06:05:00Z' }));
    renderApp('/settings');
    const c = await card();
    expect(await within(c).findByRole('switch', { name: 'Send payment reminders' })).toBeChecked();
    expect(within(c).getByLabelText('When')).toHaveValue('2');
    expect(within(c).getByRole('option', { name: '2 days before' })).toBeInTheDocument();
    expect(within(c).getByLabelText('Time')).toHaveValue('8');
    expect(within(c).getByText('Business time, Africa/Nairobi')).toBeInTheDocument();
    expect(within(c).getByTestId('reminder-preview')).toHaveTextContent('runs out tomorrow. Pay KES 50.00 a day');
    expect(within(c).getByText(/^1,234 reminders in the last 30 days, the last /)).toBeInTheDocument();
    expect(within(c).queryByText('No SMS provider')).not.toBeInTheDocument();
  });

  it('turns reminders on with the chosen day and hour, and says so', async () => {
    seedSession({ user: buildUser({ role: 'admin' }) });
    const { calls } = mockSettingsApi();
    renderApp('/settings');
    const c = await card();
    const user = userEvent.setup();
    await user.click(await within(c).findByRole('switch', { name: 'Send payment reminders' }));
    await user.selectOptions(within(c).getByLabelText('When'), 'On the day the credit runs out');
    await user.selectOptions(within(c).getByLabelText('Time'), 'From 07:00');
    await user.click(within(c).getByRole('button', { name: 'Save Reminders' }));
    expect(await screen.findByText('Payment reminders are on')).toBeInTheDocument();
    const put = calls.find((x) => x.method === 'PUT' && x.url.startsWith('/payg/settings/reminders'));
    expect(JSON.parse(put!.body!)).toEqual({ enabled: true, days_before: 0, send_hour: 7 });
    await waitFor(() => expect(within(c).getByRole('switch', { name: 'Send payment reminders' })).toBeChecked());
    expect(within(c).getByLabelText('When')).toHaveValue('0');
  });

  it('warns that nothing is sent without an SMS provider', async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    mockSettingsApi(undefined, [], buildReminders({ can_send: false }));
    renderApp('/settings');
    expect(await within(await card()).findByText('No SMS provider')).toBeInTheDocument();
  });

  it("shows the server's refusal by its field and in the banner", async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    mockSettingsApi((call, path) =>
      path === '/payg/settings/reminders' && call.method === 'PUT'
        ? jsonResponse(400, { message: 'send_hour: must be at most 23', errors: [{ field: 'send_hour', message: 'must be at most 23' }] })
        : undefined,
    );
    renderApp('/settings');
    const c = await card();
    const user = userEvent.setup();
    await user.click(await within(c).findByRole('switch', { name: 'Send payment reminders' }));
    await user.click(within(c).getByRole('button', { name: 'Save Reminders' }));
    expect(await within(c).findByText('Failed to save payment reminders')).toBeInTheDocument();
    expect(within(c).getAllByText(/must be at most 23/).length).toBeGreaterThan(0);
  });

  it('is not shown to staff, nor asked for', async () => {
    seedSession({ user: buildUser({ role: 'staff' }) });
    const { calls } = mockSettingsApi();
    renderApp('/settings');
    await screen.findByRole('region', { name: 'System Configuration' });
    expect(screen.queryByRole('region', { name: 'Payment Reminders' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/payg/settings/reminders'))).toBe(false);
  });
});
