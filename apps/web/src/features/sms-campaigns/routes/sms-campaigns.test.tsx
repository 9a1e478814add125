import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import type { Campaign } from '../api/types';
import { badRequest, buildCampaign, campaignPosts, conflict, listCalls, mockSmsCampaignsApi, type Handler } from '../testing/mock-sms-campaigns-api';

const TEXT = 'Habari {name}, our Nakuru shop has moved to Kenyatta Avenue.';
const NO_PROVIDER = 'No SMS provider is set up to send it: an owner or admin sets one in Settings → SMS Provider';

/** The screen as `role`, its API keeping `campaigns`; `extra` answers first. */
async function open(role: 'owner' | 'admin' | 'staff' = 'owner', campaigns?: Campaign[], extra?: Handler) {
  const api = mockSmsCampaignsApi(campaigns, extra);
  seedSession({ user: buildUser({ role }) });
  renderApp('/sms-campaigns');
  return { ...api, user: userEvent.setup() };
}

const form = () => screen.getByRole('form', { name: 'New Bulk SMS' });
const message = () => within(form()).getByRole('textbox', { name: /Message/ });
/** The table of bulk SMS, once its first page is read. */
async function table() {
  const t = await screen.findByRole('table', { name: 'Sent and scheduled' });
  await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument());
  return t;
}
const rowOf = (t: HTMLElement, text: string) => within(t).getByText(text).closest('tr')!;

/** Writes TEXT: "Habari ", the {name} button, and the rest. */
async function writeText(user: ReturnType<typeof userEvent.setup>) {
  await user.type(message(), 'Habari ');
  await user.click(within(form()).getByRole('button', { name: '{name}' }));
  await user.type(message(), ', our Nakuru shop has moved to Kenyatta Avenue.');
  expect(message()).toHaveValue(TEXT);
}

describe('Bulk SMS', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('is listed for owners and admins after Messages, and kept from staff', async () => {
    const { calls } = await open('staff');
    expect(await screen.findByText('Only owners and admins can send bulk SMS.')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).queryByRole('link', { name: 'Bulk SMS' })).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Messages' })).toBeInTheDocument();
    expect(listCalls(calls)).toEqual([]);
  });

  it('shows the sidebar entry to an admin, the page open', async () => {
    await open('admin');
    await table();
    const labels = within(screen.getByRole('navigation', { name: 'Main navigation' }))
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(labels.slice(labels.indexOf('Messages'), labels.indexOf('Messages') + 2)).toEqual(['Messages', 'Bulk SMS']);
    expect(screen.getByRole('link', { name: 'Bulk SMS' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('heading', { name: 'Bulk SMS' })).toBeInTheDocument();
    expect(screen.getByText(/One text to a group of your customers, now or at a set time\. Customers who texted STOP are passed over/)).toBeInTheDocument();
  });

  it('previews the text: the texts and SMS, who is passed over, and the first texts filled in', async () => {
    const { user, calls } = await open();
    await table();
    await writeText(user);
    expect(within(form()).getByText(/^62 characters · 1 SMS/)).toBeInTheDocument();
    await user.click(within(form()).getByRole('button', { name: 'Preview' }));

    const preview = await within(form()).findByRole('region', { name: 'Preview' });
    expect(preview).toHaveTextContent('Preview: Customers with a device');
    expect(preview).toHaveTextContent(/1,234 texts.*1,300 SMS/);
    expect(preview).toHaveTextContent(/Passed over:.*5 without a phone.*3 texted STOP.*2 on a phone number texted already/);
    expect(preview).toHaveTextContent('To Amina Wanjiru · 254712345678');
    expect(within(preview).getByText('Habari Amina, our Nakuru shop has moved to Kenyatta Avenue.')).toBeInTheDocument();
    expect(preview).toHaveTextContent('To Baraka Otieno · 254722000111');
    expect(within(preview).getByText('Habari Baraka, our Nakuru shop has moved to Kenyatta Avenue.')).toBeInTheDocument();
    expect(preview).toHaveTextContent('and 1,232 texts more');
    expect(campaignPosts(calls)).toEqual([{ audience: { customers: 'with_device' }, text: TEXT, dry_run: true }]);

    // A change to the text or the group puts the preview away: it no longer says what would go.
    await user.type(message(), ' Karibu!');
    expect(within(form()).queryByRole('region', { name: 'Preview' })).not.toBeInTheDocument();
  });

  it('schedules the text to a narrowed group after a last confirmation: the filters and send_at in the body, then the list refreshed', async () => {
    const { user, calls } = await open();
    const t = await table();
    expect(within(t).getAllByRole('row')).toHaveLength(2);

    await user.click(within(form()).getByRole('combobox', { name: 'Repayment standing' }));
    await user.click(await screen.findByRole('option', { name: 'Far behind' }));
    await user.click(await screen.findByRole('option', { name: 'Behind' }));
    await user.type(within(form()).getByRole('textbox', { name: 'Product' }), 'Sun King Home 60');
    await user.type(within(form()).getByRole('textbox', { name: 'County' }), ' Nakuru ');
    await user.type(within(form()).getByRole('combobox', { name: 'Sales agent' }), 'AGT-001');
    await writeText(user);

    await user.click(within(form()).getByText('At a set time'));
    await user.click(within(form()).getByLabelText(/Send at/));
    const picker = await screen.findByRole('dialog');
    const day = dayjs().add(2, 'day');
    if (day.month() !== dayjs().month()) await user.click(picker.querySelector('[data-direction="next"]')!);
    await user.click(within(picker).getByRole('button', { name: day.format('D MMMM YYYY') }));
    await user.type(within(picker).getByRole('spinbutton', { name: 'Hour' }), '09');
    await user.type(within(picker).getByRole('spinbutton', { name: 'Minutes' }), '30');
    await user.click(within(picker).getByRole('button', { name: 'Set the day and time' }));
    const sendAt = dayjs(`${day.format('YYYY-MM-DD')} 09:30:00`).format();

    await user.click(within(form()).getByRole('button', { name: 'Send' }));
    const confirm = await screen.findByRole('dialog', { name: 'Schedule Bulk SMS' });
    const audience = 'Customers with a device, Behind or Far behind, holding a Sun King Home 60, of Nakuru county, of agent AGT-001';
    expect(confirm).toHaveTextContent(`Send 1,234 texts to ${audience}?`);
    expect(confirm).toHaveTextContent('1,300 SMS in all');
    expect(confirm).toHaveTextContent(/You can cancel it/);
    const body = {
      audience: { customers: 'with_device', standing: ['behind', 'far_behind'], product_name: 'Sun King Home 60', county: 'Nakuru', agent: 'AGT-001' },
      text: TEXT,
      send_at: sendAt,
    };
    // Send previewed first (the counts of the question); nothing sent until Yes.
    expect(campaignPosts(calls)).toEqual([{ ...body, dry_run: true }]);

    await user.click(within(confirm).getByRole('button', { name: 'Schedule 1,234 texts' }));
    expect(await screen.findByText(`1,234 texts to ${audience} scheduled`)).toBeInTheDocument();
    expect(campaignPosts(calls)).toEqual([
      { ...body, dry_run: true },
      { ...body, dry_run: false },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Schedule Bulk SMS' })).not.toBeInTheDocument());
    // The list read again: the new bulk SMS on top, scheduled; the form ready for the next one.
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Sent and scheduled' })).getAllByRole('row')).toHaveLength(3));
    expect(within(rowOf(screen.getByRole('table', { name: 'Sent and scheduled' }), audience)).getByText('Scheduled')).toBeInTheDocument();
    expect(message()).toHaveValue('');
    expect(within(form()).queryByRole('region', { name: 'Preview' })).not.toBeInTheDocument();
  });

  it('sends now to the customers without a device: no standing or product for them', async () => {
    const { user, calls } = await open();
    await table();
    await user.click(within(form()).getByRole('combobox', { name: 'Customers' }));
    await user.click(await screen.findByRole('option', { name: 'Customers without a device' }));
    expect(within(form()).getByRole('combobox', { name: 'Repayment standing' })).toBeDisabled();
    expect(within(form()).getByRole('textbox', { name: 'Product' })).toBeDisabled();
    await user.type(within(form()).getByRole('textbox', { name: 'County' }), 'Kisumu');
    await user.type(message(), 'Karibu! A new shop opens in Kisumu on Monday.');
    await user.click(within(form()).getByRole('button', { name: 'Send' }));
    const confirm = await screen.findByRole('dialog', { name: 'Send Bulk SMS' });
    expect(confirm).toHaveTextContent('Send 1,234 texts to Customers without a device, of Kisumu county?');
    expect(confirm).toHaveTextContent('1,300 SMS in all (what your SMS provider bills), now.');
    await user.click(within(confirm).getByRole('button', { name: 'Send 1,234 texts' }));
    expect(await screen.findByText('1,234 texts to Customers without a device, of Kisumu county queued')).toBeInTheDocument();
    expect(campaignPosts(calls).at(-1)).toEqual({
      audience: { customers: 'without_device', county: 'Kisumu' },
      text: 'Karibu! A new shop opens in Kisumu on Monday.',
      dry_run: false,
    });
  });

  it('says what is wrong with the text: an unknown placeholder before asking, and the API’s 400 under the field', async () => {
    const tooLong = 'filled in for Amina Wanjiru it is 4 SMS: it must fit in 3 for every customer';
    const { user, calls } = await open('owner', undefined, (call) => (call.method === 'POST' && call.url === '/payg/sms-campaigns' ? badRequest('text', tooLong) : undefined));
    await table();
    await user.type(message(), 'Hi {{nmae}');
    expect(await within(form()).findByText('{nmae} is not a placeholder: use {name}, {full_name}, {balance}, {serials}')).toBeInTheDocument();
    await user.click(within(form()).getByRole('button', { name: 'Preview' }));
    expect(campaignPosts(calls)).toEqual([]);

    // Empty: required, said in the field's name.
    await user.clear(message());
    await user.click(within(form()).getByRole('button', { name: 'Preview' }));
    expect(await within(form()).findByText('Message is required')).toBeInTheDocument();
    expect(campaignPosts(calls)).toEqual([]);

    await user.type(message(), 'Hi {{full_name}');
    await user.click(within(form()).getByRole('button', { name: 'Preview' }));
    expect(await within(form()).findByText(tooLong)).toBeInTheDocument();
    expect(message()).toHaveAttribute('aria-invalid', 'true');
    expect(within(form()).queryByRole('region', { name: 'Preview' })).not.toBeInTheDocument();
    expect(campaignPosts(calls)).toEqual([{ audience: { customers: 'with_device' }, text: 'Hi {full_name}', dry_run: true }]);
  });

  it('asks for the time when "At a set time" has none', async () => {
    const { user, calls } = await open();
    await table();
    await user.type(message(), 'Karibu!');
    await user.click(within(form()).getByText('At a set time'));
    await user.click(within(form()).getByRole('button', { name: 'Send' }));
    expect(await within(form()).findByText('Choose the day and time to send it')).toBeInTheDocument();
    expect(campaignPosts(calls)).toEqual([]);
  });

  it('shows a 409 above the buttons: no SMS provider set up', async () => {
    const sendRefused = (call: RecordedCall) =>
      call.method === 'POST' && call.url === '/payg/sms-campaigns' && !(JSON.parse(call.body!) as { dry_run: boolean }).dry_run ? conflict(NO_PROVIDER) : undefined;
    const { user, calls } = await open('owner', undefined, sendRefused);
    const t = await table();
    await user.type(message(), 'Karibu!');
    await user.click(within(form()).getByRole('button', { name: 'Send' }));
    const confirm = await screen.findByRole('dialog', { name: 'Send Bulk SMS' });
    await user.click(within(confirm).getByRole('button', { name: 'Send 1,234 texts' }));
    const alert = await within(form()).findByRole('alert');
    expect(alert).toHaveTextContent(NO_PROVIDER);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Send Bulk SMS' })).not.toBeInTheDocument());
    expect(campaignPosts(calls).map((b) => b.dry_run)).toEqual([true, false]);
    expect(within(t).getAllByRole('row')).toHaveLength(2);
  });

  it('shows a 409 of the preview: too many customers', async () => {
    const tooMany = 'The group has 120,000 customers: a bulk SMS goes to at most 100,000, text a county, a product or an agent at a time';
    const { user } = await open('owner', undefined, (call) => (call.method === 'POST' && call.url === '/payg/sms-campaigns' ? conflict(tooMany) : undefined));
    await table();
    await user.type(message(), 'Karibu!');
    await user.click(within(form()).getByRole('button', { name: 'Preview' }));
    expect(await within(form()).findByRole('alert')).toHaveTextContent(tooMany);
    expect(screen.queryByRole('dialog', { name: 'Send Bulk SMS' })).not.toBeInTheDocument();
  });

  it('shows a 400 of a filter under its field, and one of the whole group above the buttons', async () => {
    let refusal = badRequest('audience.county', 'must not be empty');
    const { user } = await open('owner', undefined, (call) => (call.method === 'POST' && call.url === '/payg/sms-campaigns' ? refusal : undefined));
    await table();
    await user.type(within(form()).getByRole('textbox', { name: 'County' }), 'Nakuru');
    await user.type(message(), 'Karibu!');
    await user.click(within(form()).getByRole('button', { name: 'Preview' }));
    expect(await within(form()).findByText('County must not be empty')).toBeInTheDocument();
    expect(within(form()).getByRole('textbox', { name: 'County' })).toHaveAttribute('aria-invalid', 'true');

    refusal = badRequest('audience', 'no customer of your organization is of Nakuru county');
    await user.click(within(form()).getByRole('button', { name: 'Preview' }));
    expect(await within(form()).findByRole('alert')).toHaveTextContent('audience: no customer of your organization is of Nakuru county');
    expect(within(form()).queryByText('County must not be empty')).not.toBeInTheDocument();
  });

  it('says when the list cannot be read, with Retry', async () => {
    let fail = true;
    const { user } = await open('owner', [buildCampaign({ audience_text: 'All customers' })], (call) =>
      fail && call.method === 'GET' && call.url.startsWith('/payg/sms-campaigns?') ? jsonResponse(500, { detail: 'Database unavailable' }) : undefined,
    );
    expect(await screen.findByText('Database unavailable')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await within(await table()).findByText('All customers')).toBeInTheDocument();
  });

  it('lists the bulk SMS with their status and what became of their texts', async () => {
    const longText = 'Habari {name}, from Monday our Nakuru shop is on Kenyatta Avenue, next to the post office. Karibu! Pay as before.';
    const { calls } = await open('owner', [
      buildCampaign({ campaign_id: 4, audience_text: 'Customers without a device', send_at: '2026-12-20T07:00:00Z', status: 'scheduled', recipients: 500, parts: 1000, text: longText, delivery: { queued: 500, sent: 0, failed: 0, cancelled: 0 } }),
      buildCampaign({ campaign_id: 3, audience_text: 'All customers, of Nakuru county', status: 'sending', recipients: 100, parts: 100, delivery: { queued: 90, sent: 10, failed: 0, cancelled: 0 } }),
      buildCampaign({ campaign_id: 2, audience_text: 'Customers with a device, Paid off', created_by: 'baraka' }),
      buildCampaign({
        campaign_id: 1,
        audience_text: 'Customers with a device, of agent AGT-001',
        status: 'cancelled',
        recipients: 100,
        delivery: { queued: 0, sent: 60, failed: 0, cancelled: 40 },
        cancelled_at: '2026-11-24T09:10:00Z',
        cancelled_by: 'amina',
      }),
    ]);
    const t = await table();
    expect(listCalls(calls)[0]).toBe('/payg/sms-campaigns?page=1&limit=20');

    const scheduled = rowOf(t, 'Customers without a device');
    expect(within(scheduled).getByText('Scheduled')).toBeInTheDocument();
    expect(scheduled).toHaveTextContent(/500.*1,000 SMS/);
    expect(scheduled).toHaveTextContent(/0 sent.*500 queued/);
    expect(within(scheduled).getByText(longText)).toHaveAttribute('title', longText);
    expect(within(scheduled).getByRole('button', { name: 'More' })).toBeInTheDocument();
    expect(within(scheduled).getByRole('button', { name: /^Cancel/ })).toBeInTheDocument();

    const sending = rowOf(t, 'All customers, of Nakuru county');
    expect(within(sending).getByText('Sending')).toBeInTheDocument();
    expect(sending).toHaveTextContent(/10 sent.*90 queued/);
    expect(within(sending).getByRole('button', { name: /^Cancel/ })).toBeInTheDocument();

    const sent = rowOf(t, 'Customers with a device, Paid off');
    expect(within(sent).getByText('Sent')).toBeInTheDocument();
    expect(sent).toHaveTextContent(/by baraka/);
    expect(sent).toHaveTextContent(/118 sent.*2 failed/);
    expect(within(sent).queryByRole('button', { name: /^Cancel/ })).not.toBeInTheDocument();

    const cancelled = rowOf(t, 'Customers with a device, of agent AGT-001');
    expect(within(cancelled).getByText('Cancelled')).toBeInTheDocument();
    expect(cancelled).toHaveTextContent(/60 sent.*40 cancelled/);
    expect(cancelled).toHaveTextContent(/cancelled .* by amina/);
    expect(within(cancelled).queryByRole('button', { name: /^Cancel/ })).not.toBeInTheDocument();
  });

  it('cancels a scheduled bulk SMS after asking, says what it did and reads the list again', async () => {
    const { user, calls } = await open('owner', [
      buildCampaign({ campaign_id: 7, audience_text: 'All customers', status: 'scheduled', send_at: '2026-12-20T07:00:00Z', delivery: { queued: 120, sent: 0, failed: 0, cancelled: 0 } }),
    ]);
    const t = await table();
    const reads = listCalls(calls).length;
    await user.click(within(rowOf(t, 'All customers')).getByRole('button', { name: /^Cancel/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel Bulk SMS' });
    expect(confirm).toHaveTextContent(/Cancel the bulk SMS to All customers .*\?/);
    expect(confirm).toHaveTextContent('None of its 120 texts goes out.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel Bulk SMS' }));

    expect(await screen.findByText('Bulk SMS cancelled: 120 texts not sent')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/payg/sms-campaigns/7/cancel']);
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(reads));
    const row = rowOf(screen.getByRole('table', { name: 'Sent and scheduled' }), 'All customers');
    expect(await within(row).findByText('Cancelled')).toBeInTheDocument();
    expect(row).toHaveTextContent('120 cancelled');
    expect(within(row).queryByRole('button', { name: /^Cancel/ })).not.toBeInTheDocument();
  });

  it('keeps a bulk SMS when the question is answered Keep It', async () => {
    const { user, calls } = await open('owner', [buildCampaign({ campaign_id: 7, status: 'sending', delivery: { queued: 30, sent: 90, failed: 0, cancelled: 0 } })]);
    const t = await table();
    await user.click(within(t).getByRole('button', { name: /^Cancel/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel Bulk SMS' });
    expect(confirm).toHaveTextContent('Its 30 texts still queued do not go out; those sent already cannot be called back.');
    await user.click(within(confirm).getByRole('button', { name: 'Keep It' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cancel Bulk SMS' })).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('reads the list again every 10 s while a bulk SMS of the page is scheduled or sending, and not once all are sent', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls, state } = await open('owner', [buildCampaign({ status: 'sending', delivery: { queued: 30, sent: 90, failed: 0, cancelled: 0 } })]);
    await table();
    const reads = listCalls(calls).length;
    state.campaigns = [buildCampaign()];
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(listCalls(calls).length).toBe(reads + 1));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Sent and scheduled' })).getByText('Sent')).toBeInTheDocument());
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(listCalls(calls).length).toBe(reads + 1);
  });

  it('says when there is no bulk SMS yet', async () => {
    await open('owner', []);
    expect(await screen.findByText('No bulk SMS yet')).toBeInTheDocument();
  });

  it('pages the list 20 at a time', async () => {
    const many = Array.from({ length: 25 }, (_, i) => buildCampaign({ campaign_id: 100 - i, audience_text: `Group ${i + 1}` }));
    const { user, calls } = await open('owner', many);
    const t = await table();
    expect(within(t).getAllByRole('row')).toHaveLength(21);
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Sent and scheduled' })).getAllByRole('row')).toHaveLength(6));
    expect(listCalls(calls).at(-1)).toBe('/payg/sms-campaigns?page=2&limit=20');
  });
});
