import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { mockSettingsApi } from '@/features/settings/testing/mock-settings-api';

describe('follow-on sales card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  const card = () => screen.findByRole('region', { name: 'Follow-on Sales' });

  it('starts with no check, saves a rule and the repossessed switch, and says what each rule refuses', async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    const { calls } = mockSettingsApi();
    renderApp('/settings');
    const c = await card();
    const user = userEvent.setup();
    expect(await within(c).findByRole('radio', { name: 'Any customer (no check)' })).toBeChecked();
    expect(within(c).getByRole('button', { name: 'Save Rule' })).toBeDisabled();
    expect(within(c).getByText('Refuses customers behind: under 90% of what their plans expect paid by today.')).toBeInTheDocument();
    await user.click(within(c).getByRole('radio', { name: 'Only to customers On track or Paid off' }));
    await user.click(within(c).getByRole('switch', { name: /None to customers a device was repossessed from/ }));
    await user.click(within(c).getByRole('button', { name: 'Save Rule' }));
    expect(await screen.findByText('Follow-on sales rule saved')).toBeInTheDocument();
    const put = calls.find((x) => x.method === 'PUT' && x.url.startsWith('/payg/settings/follow-on-sales'));
    expect(JSON.parse(put!.body!)).toEqual({ rule: 'on_track', refuse_repossessed: true });
    await waitFor(() => expect(within(c).getByRole('radio', { name: 'Only to customers On track or Paid off' })).toBeChecked());
    expect(within(c).getByRole('switch', { name: /None to customers a device was repossessed from/ })).toBeChecked();
    expect(within(c).getByRole('button', { name: 'Save Rule' })).toBeDisabled();
  });

  it("shows the server's refusal in the banner", async () => {
    seedSession({ user: buildUser({ role: 'admin' }) });
    mockSettingsApi((call, path) =>
      path === '/payg/settings/follow-on-sales' && call.method === 'PUT'
        ? jsonResponse(400, { message: 'rule: must be one of any, behind, on_track', errors: [{ field: 'rule', message: 'must be one of any, behind, on_track' }] })
        : undefined,
    );
    renderApp('/settings');
    const c = await card();
    const user = userEvent.setup();
    await user.click(await within(c).findByRole('radio', { name: 'Not to customers Far behind' }));
    await user.click(within(c).getByRole('button', { name: 'Save Rule' }));
    const alert = await within(c).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to save the follow-on sales rule');
    expect(within(c).getAllByText(/must be one of any, behind, on_track/).length).toBeGreaterThan(0);
  });

  it('is not shown to staff', async () => {
    seedSession({ user: buildUser({ role: 'staff' }) });
    mockSettingsApi();
    renderApp('/settings');
    await screen.findByRole('region', { name: 'Change Password' });
    expect(screen.queryByRole('region', { name: 'Follow-on Sales' })).not.toBeInTheDocument();
  });
});
