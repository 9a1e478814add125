import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { mockSettingsApi } from '../testing/mock-settings-api';

describe('agreement settings card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  const card = () => screen.findByRole('region', { name: 'Agreement' });

  it("saves the organization's details, paybill and own terms, and counts the terms they add", async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    const { calls } = mockSettingsApi();
    renderApp('/settings');
    const c = await card();
    expect(await within(c).findByText(/The agreement has the standard terms only\./)).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(within(c).getByRole('textbox', { name: 'Your details' }), 'Box 1234-30100, Eldoret');
    await user.type(within(c).getByRole('textbox', { name: 'Paybill or till number' }), ' 522533 ');
    await user.type(within(c).getByRole('textbox', { name: 'Your own terms' }), 'The battery is under warranty for two years.{enter}{enter}Report a stolen device within 7 days.');
    expect(within(c).getByText(/Terms 8 to 9 are yours\./)).toBeInTheDocument();
    await user.click(within(c).getByRole('button', { name: 'Save Agreement' }));
    expect(await screen.findByText("The agreement's settings were saved")).toBeInTheDocument();
    const put = calls.find((x) => x.method === 'PUT' && x.url.startsWith('/payg/settings/agreement'));
    expect(JSON.parse(put!.body!)).toEqual({
      seller_details: 'Box 1234-30100, Eldoret',
      paybill: '522533',
      extra_terms: 'The battery is under warranty for two years.\n\nReport a stolen device within 7 days.',
    });
    await waitFor(() => expect(within(c).getByRole('textbox', { name: 'Paybill or till number' })).toHaveValue('522533'));
  });

  it('refuses a paybill that is not 5 to 10 digits before sending it, and puts a server refusal under its field', async () => {
    seedSession({ user: buildUser({ role: 'admin' }) });
    const { calls } = mockSettingsApi((call, path) =>
      path === '/payg/settings/agreement' && call.method === 'PUT'
        ? jsonResponse(400, { detail: 'seller_details: must be at most 300 characters', message: 'seller_details: must be at most 300 characters', errors: [{ field: 'seller_details', message: 'must be at most 300 characters' }] })
        : undefined,
    );
    renderApp('/settings');
    const c = await card();
    const user = userEvent.setup();
    const paybill = await within(c).findByRole('textbox', { name: 'Paybill or till number' });
    await user.type(paybill, '52-25');
    await user.click(within(c).getByRole('button', { name: 'Save Agreement' }));
    expect(await within(c).findByText('Paybill or till number must be 5 to 10 digits')).toBeInTheDocument();
    expect(calls.some((x) => x.method === 'PUT')).toBe(false);
    await user.clear(paybill);
    await user.click(within(c).getByRole('button', { name: 'Save Agreement' }));
    expect(await within(c).findByText('Your details must be at most 300 characters')).toBeInTheDocument();
  });

  it('is not shown to staff', async () => {
    seedSession({ user: buildUser({ role: 'staff' }) });
    mockSettingsApi();
    renderApp('/settings');
    await screen.findByRole('region', { name: 'Change Password' });
    expect(screen.queryByRole('region', { name: 'Agreement' })).toBeNull();
  });
});
