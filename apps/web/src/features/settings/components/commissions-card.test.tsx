import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { mockSettingsApi } from '../testing/mock-settings-api';

describe('agent commissions card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  const card = () => screen.findByRole('region', { name: 'Agent Commissions' });

  it('starts at none, saves both and shows what an agent earns with them', async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    const { calls } = mockSettingsApi();
    renderApp('/settings');
    const c = await card();
    expect(await within(c).findByTestId('commission-example')).toHaveTextContent('No commission is reckoned: both are 0.');
    const user = userEvent.setup();
    const perDevice = within(c).getByLabelText('Per device given');
    await user.clear(perDevice);
    await user.type(perDevice, '500');
    const percent = within(c).getByLabelText('Of payments collected');
    await user.clear(percent);
    await user.type(percent, '2.5');
    await user.click(within(c).getByRole('button', { name: 'Save Commissions' }));
    expect(await screen.findByText('Agent commissions saved')).toBeInTheDocument();
    const put = calls.find((x) => x.method === 'PUT' && x.url.startsWith('/payg/settings/commissions'));
    expect(JSON.parse(put!.body!)).toEqual({ per_device: 500, percent: 2.5 });
    await waitFor(() =>
      expect(within(c).getByTestId('commission-example')).toHaveTextContent(/10 devices and paid USD 100,000\.00 in a period earns USD 7,500\.00\./),
    );
    expect(within(c).getByRole('link', { name: "Each agent's commission is in the Agent Report" })).toHaveAttribute('href', '/reports');
    expect(within(c).getByRole('link', { name: 'Paid month by month on Agent Commissions' })).toHaveAttribute('href', '/commissions');
  });

  it('sends an emptied field as 0', async () => {
    seedSession({ user: buildUser({ role: 'admin' }) });
    const { calls } = mockSettingsApi();
    renderApp('/settings');
    const c = await card();
    const user = userEvent.setup();
    await user.clear(await within(c).findByLabelText('Per device given'));
    await user.click(within(c).getByRole('button', { name: 'Save Commissions' }));
    await screen.findByText('Agent commissions saved');
    const put = calls.find((x) => x.method === 'PUT' && x.url.startsWith('/payg/settings/commissions'));
    expect(JSON.parse(put!.body!)).toEqual({ per_device: 0, percent: 0 });
  });

  it("shows the server's refusal by its field and in the banner", async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    mockSettingsApi((call, path) =>
      path === '/payg/settings/commissions' && call.method === 'PUT'
        ? jsonResponse(400, { message: 'percent: must be at most 100', errors: [{ field: 'percent', message: 'must be at most 100' }] })
        : undefined,
    );
    renderApp('/settings');
    const c = await card();
    const user = userEvent.setup();
    await user.click(await within(c).findByRole('button', { name: 'Save Commissions' }));
    expect(await within(c).findByText('Failed to save agent commissions')).toBeInTheDocument();
    expect(within(c).getAllByText(/must be at most 100/).length).toBeGreaterThan(0);
  });

  it('is not shown to staff, nor asked for', async () => {
    seedSession({ user: buildUser({ role: 'staff' }) });
    const { calls } = mockSettingsApi();
    renderApp('/settings');
    await screen.findByRole('region', { name: 'System Configuration' });
    expect(screen.queryByRole('region', { name: 'Agent Commissions' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/payg/settings/commissions'))).toBe(false);
  });
});
