import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { mockSettingsApi } from '../testing/mock-settings-api';

describe('phone numbers card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  const card = () => screen.findByRole('region', { name: 'Phone Numbers' });

  it('shows Kenya, warns what a change does, saves Uganda and says how many numbers were read again', async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    const { calls } = mockSettingsApi();
    renderApp('/settings');
    const c = await card();
    expect(await within(c).findByTestId('phone-country-example')).toHaveTextContent('0712 345 678 is read as +254712345678');
    const country = within(c).getByLabelText(/^Country/);
    expect(country).toHaveValue('254');
    const save = within(c).getByRole('button', { name: 'Save Country' });
    expect(save).toBeDisabled();
    expect(within(c).queryByText(/Read numbers as/)).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.selectOptions(country, 'Uganda (+256)');
    expect(within(c).getByText("Read numbers as Uganda's?")).toBeInTheDocument();
    expect(within(c).getByText(/as a number of Uganda \(\+256\)/)).toBeInTheDocument();
    expect(within(c).queryByTestId('phone-country-example')).not.toBeInTheDocument();
    await user.click(save);
    expect(await screen.findByText("Phone numbers are read as Uganda's: 1,204 customers' numbers read again")).toBeInTheDocument();
    const put = calls.find((x) => x.method === 'PUT' && x.url.startsWith('/payg/settings/phone-country'));
    expect(JSON.parse(put!.body!)).toEqual({ phone_country_code: '256' });
    await waitFor(() => expect(within(c).getByTestId('phone-country-example')).toHaveTextContent('0772 123 456 is read as +256772123456'));
    expect(within(c).queryByText(/Read numbers as/)).not.toBeInTheDocument();
    expect(within(c).getByRole('button', { name: 'Save Country' })).toBeDisabled();
  });

  it('says how many numbers read as no phone after a change, and keeps saying it', async () => {
    seedSession({ user: buildUser({ role: 'owner' }) });
    mockSettingsApi();
    renderApp('/settings');
    const c = await card();
    expect(within(c).queryByTestId('phone-country-unreadable')).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.selectOptions(await within(c).findByLabelText(/^Country/), 'Nigeria (+234)');
    await user.click(within(c).getByRole('button', { name: 'Save Country' }));
    expect(
      await screen.findByText("Phone numbers are read as Nigeria's: 1,204 customers' numbers read again, 1,204 not readable as a phone"),
    ).toBeInTheDocument();
    expect(await within(c).findByTestId('phone-country-unreadable')).toHaveTextContent(
      '1,204 customers have a number that reads as no phone: payments and texts from their phones cannot find them',
    );
  });

  it("shows the server's refusal by the field and in the banner", async () => {
    seedSession({ user: buildUser({ role: 'admin' }) });
    mockSettingsApi((call, path) =>
      path === '/payg/settings/phone-country' && call.method === 'PUT'
        ? jsonResponse(400, {
            message: 'phone_country_code: must be the calling code of one of Kenya (254), Uganda (256)',
            errors: [{ field: 'phone_country_code', message: 'must be the calling code of one of Kenya (254), Uganda (256)' }],
          })
        : undefined,
    );
    renderApp('/settings');
    const c = await card();
    const user = userEvent.setup();
    await user.selectOptions(await within(c).findByLabelText(/^Country/), 'Tanzania (+255)');
    await user.click(within(c).getByRole('button', { name: 'Save Country' }));
    expect(await within(c).findByText('Failed to save the phone country')).toBeInTheDocument();
    expect(within(c).getAllByText(/must be the calling code of one of/).length).toBeGreaterThan(1);
  });

  it('is not shown to staff', async () => {
    seedSession({ user: buildUser({ role: 'staff' }) });
    const { calls } = mockSettingsApi();
    renderApp('/settings');
    await screen.findByRole('region', { name: 'System Configuration' });
    expect(screen.queryByRole('region', { name: 'Phone Numbers' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/payg/settings/phone-country'))).toBe(false);
  });
});
