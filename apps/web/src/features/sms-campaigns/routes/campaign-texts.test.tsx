import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/components/ui/date-text';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import type { Campaign, CampaignText } from '../api/types';
import { buildCampaign, buildCampaignText, mockSmsCampaignsApi, textsCalls, TEXTS, type Handler } from '../testing/mock-sms-campaigns-api';

const SENT_AT = '2026-11-24T09:00:00Z';

/** The Bulk SMS page as an owner, its API keeping `campaigns` and their `texts`; `extra` answers first. */
async function open(campaigns: Campaign[] = [buildCampaign()], texts?: Record<number, CampaignText[]>, extra?: Handler) {
  const api = mockSmsCampaignsApi(campaigns, extra, texts);
  seedSession({ user: buildUser({ role: 'owner' }) });
  renderApp('/sms-campaigns');
  const list = await screen.findByRole('table', { name: 'Sent and scheduled' });
  await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument());
  return { ...api, list, user: userEvent.setup() };
}

/** Opens the drawer of the bulk SMS sent at `sendAt`, and waits for its first page. */
async function openTexts(user: ReturnType<typeof userEvent.setup>, sendAt = SENT_AT) {
  await user.click(screen.getByRole('button', { name: `Texts of the bulk SMS of ${formatDate(sendAt, true)}` }));
  const drawer = await screen.findByRole('dialog', { name: 'Texts of the bulk SMS' });
  await waitFor(() => expect(within(drawer).queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument());
  return drawer;
}

const textsTable = (drawer: HTMLElement) => within(drawer).getByRole('table', { name: 'Texts' });
const rowOf = (drawer: HTMLElement, text: string) => within(textsTable(drawer)).getByText(text).closest('tr')!;
const bodyRows = (drawer: HTMLElement) => within(textsTable(drawer)).getAllByRole('row').slice(1);

/** `n` texts to customers 1..n, all sent. */
const manyTexts = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    buildCampaignText({ message_id: i + 1, customer_id: i + 1, customer_name: `Customer ${i + 1}`, recipient_number: `2547000000${String(i + 1).padStart(2, '0')}` }),
  );

describe('Texts of a bulk SMS', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('has a Texts button on every bulk SMS, a Cancel only on those still to go out', async () => {
    const { list } = await open([
      buildCampaign({ campaign_id: 3, send_at: '2026-12-20T07:00:00Z', status: 'scheduled', delivery: { queued: 120, sent: 0, failed: 0, cancelled: 0 } }),
      buildCampaign({ campaign_id: 2, send_at: '2026-11-25T07:00:00Z', status: 'cancelled', delivery: { queued: 0, sent: 60, failed: 0, cancelled: 60 } }),
      buildCampaign({ campaign_id: 1 }),
    ]);
    expect(within(list).getAllByRole('button', { name: /^Texts of the bulk SMS of / })).toHaveLength(3);
    expect(within(list).getAllByRole('button', { name: /^Cancel/ })).toHaveLength(1);
    expect(within(list).getByRole('button', { name: `Texts of the bulk SMS of ${formatDate('2026-11-25T07:00:00Z', true)}` })).toHaveTextContent('Texts');
  });

  it('lists the texts: whom to (a link to the customer), the text, its status and why one failed', async () => {
    const { user, calls } = await open();
    const drawer = await openTexts(user);
    expect(textsCalls(calls)).toEqual(['/payg/sms-campaigns/1/texts?page=1&limit=20']);
    expect(drawer).toHaveTextContent('Customers with a device');
    expect(within(drawer).getByText(formatDate(SENT_AT, true))).toBeInTheDocument();
    // The counts of each filter, from the bulk SMS's delivery counts.
    expect(within(drawer).getByRole('radio', { name: 'All (120)' })).toBeChecked();
    expect(within(drawer).getByRole('radio', { name: 'Queued (0)' })).toBeInTheDocument();
    expect(within(drawer).getByRole('radio', { name: 'Sent (118)' })).toBeInTheDocument();
    expect(within(drawer).getByRole('radio', { name: 'Failed (2)' })).toBeInTheDocument();

    expect(bodyRows(drawer)).toHaveLength(3);
    const amina = rowOf(drawer, 'Habari Amina, our Nakuru shop has moved to Kenyatta Avenue.');
    expect(within(amina).getByRole('link', { name: 'Amina Wanjiru' })).toHaveAttribute('href', '/customer-payment-details/42');
    expect(within(amina).getByText('254712345678')).toBeInTheDocument();
    expect(within(amina).getByText('Sent')).toBeInTheDocument();
    expect(within(amina).getByText(formatDate('2026-11-24T09:02:12Z', true))).toBeInTheDocument();
    expect(amina).not.toHaveTextContent(/tries/);

    const baraka = rowOf(drawer, 'Habari Baraka, our Nakuru shop has moved to Kenyatta Avenue.');
    expect(within(baraka).getByRole('link', { name: 'Baraka Otieno' })).toHaveAttribute('href', '/customer-payment-details/43');
    expect(within(baraka).getByText('254722000111')).toBeInTheDocument();
    expect(within(baraka).getByText('Failed')).toBeInTheDocument();
    expect(within(baraka).getByText('3 tries')).toBeInTheDocument();
    expect(within(baraka).getByText('The provider refused the number: absent subscriber')).toBeInTheDocument();
    expect(baraka).toHaveTextContent('—');
  });

  it('shows the number alone for a text to a phone no customer has now', async () => {
    const { user } = await open();
    const drawer = await openTexts(user);
    const row = rowOf(drawer, 'Habari Wanjiku, our Nakuru shop has moved to Kenyatta Avenue.');
    expect(within(row).queryByRole('link')).not.toBeInTheDocument();
    expect(within(row).getByText('254733999888')).toBeInTheDocument();
    expect(within(row).getByText('Sent')).toBeInTheDocument();
  });

  it('shows the texts of one status, asking the API for page 1 of it, and says when there are none', async () => {
    const { user, calls } = await open();
    const drawer = await openTexts(user);
    await user.click(within(drawer).getByRole('radio', { name: 'Failed (2)' }));
    await waitFor(() => expect(bodyRows(drawer)).toHaveLength(1));
    expect(textsCalls(calls).at(-1)).toBe('/payg/sms-campaigns/1/texts?page=1&limit=20&status=failed');
    expect(within(drawer).getByRole('link', { name: 'Baraka Otieno' })).toBeInTheDocument();
    expect(within(drawer).getByText('The provider refused the number: absent subscriber')).toBeInTheDocument();

    await user.click(within(drawer).getByRole('radio', { name: 'Queued (0)' }));
    expect(await within(drawer).findByText('No queued texts')).toBeInTheDocument();
    expect(textsCalls(calls).at(-1)).toBe('/payg/sms-campaigns/1/texts?page=1&limit=20&status=queued');
  });

  it('pages the texts 20 at a time, and a filter goes back to page 1', async () => {
    const campaign = buildCampaign({ recipients: 25, parts: 25, delivery: { queued: 0, sent: 24, failed: 1, cancelled: 0 } });
    const texts = manyTexts(25);
    texts[21] = { ...texts[21]!, status: 'failed', error: 'Not sent: the customer asked for no texts before it went out', sent_at: null };
    const { user, calls } = await open([campaign], { 1: texts });
    const drawer = await openTexts(user);
    expect(bodyRows(drawer)).toHaveLength(20);
    expect(drawer).toHaveTextContent('Showing 1 to 20 of 25 texts');

    await user.click(within(drawer).getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(bodyRows(drawer)).toHaveLength(5));
    expect(textsCalls(calls).at(-1)).toBe('/payg/sms-campaigns/1/texts?page=2&limit=20');
    expect(within(drawer).getByRole('link', { name: 'Customer 21' })).toBeInTheDocument();
    expect(within(drawer).getByText('Not sent: the customer asked for no texts before it went out')).toBeInTheDocument();

    await user.click(within(drawer).getByRole('radio', { name: 'Failed (1)' }));
    await waitFor(() => expect(bodyRows(drawer)).toHaveLength(1));
    expect(textsCalls(calls).at(-1)).toBe('/payg/sms-campaigns/1/texts?page=1&limit=20&status=failed');
    expect(within(drawer).getByRole('link', { name: 'Customer 22' })).toBeInTheDocument();
    expect(within(drawer).queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('says when the texts cannot be read, with Retry', async () => {
    let fail = true;
    const { user } = await open(undefined, undefined, (call) =>
      fail && call.url.startsWith('/payg/sms-campaigns/1/texts') ? jsonResponse(500, { detail: 'Database unavailable' }) : undefined,
    );
    const drawer = await openTexts(user);
    expect(await within(drawer).findByRole('alert')).toHaveTextContent('Database unavailable');
    fail = false;
    await user.click(within(drawer).getByRole('button', { name: 'Retry' }));
    expect(await within(drawer).findByRole('link', { name: 'Amina Wanjiru' })).toBeInTheDocument();
  });

  it('says when the bulk SMS is not found', async () => {
    const { user } = await open(undefined, undefined, (call) =>
      call.url.startsWith('/payg/sms-campaigns/1/texts') ? jsonResponse(404, { detail: 'Bulk SMS not found', message: 'Bulk SMS not found' }) : undefined,
    );
    const drawer = await openTexts(user);
    const alert = await within(drawer).findByRole('alert');
    expect(alert).toHaveTextContent('Bulk SMS not found');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('reads the texts again every 10 s while the bulk SMS is sending, and not once it is sent', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const sending = buildCampaign({ status: 'sending', delivery: { queued: 1, sent: 1, failed: 1, cancelled: 0 }, recipients: 3 });
    const queued = TEXTS.map((t, i) => (i === 2 ? { ...t, status: 'queued' as const, sent_at: null } : t));
    const { user, calls, state } = await open([sending], { 1: queued });
    const drawer = await openTexts(user);
    expect(within(rowOf(drawer, 'Habari Wanjiku, our Nakuru shop has moved to Kenyatta Avenue.')).getByText('Queued')).toBeInTheDocument();
    const reads = textsCalls(calls).length;

    state.texts[1] = TEXTS;
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(textsCalls(calls).length).toBeGreaterThan(reads));
    await waitFor(() => expect(within(rowOf(drawer, 'Habari Wanjiku, our Nakuru shop has moved to Kenyatta Avenue.')).getByText('Sent')).toBeInTheDocument());

    // The list reads it sent: the counts follow, and the texts are read no more.
    state.campaigns = [buildCampaign({ recipients: 3, delivery: { queued: 0, sent: 2, failed: 1, cancelled: 0 } })];
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(within(drawer).getByRole('radio', { name: 'Sent (2)' })).toBeInTheDocument());
    const last = textsCalls(calls).length;
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(textsCalls(calls).length).toBe(last);
  });
});
