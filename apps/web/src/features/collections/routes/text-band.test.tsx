import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_AGENT, type BandSmsReply } from '@kidogo/contracts';
import { buildUser, seedSession } from '@/testing/factories';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { DEFAULT_BAND_TEXT } from '../components/text-band-modal';
import { buildAccount, mockCollectionsApi } from '../testing/mock-collections-api';

const fill = (text: string) => text.replace(/\{name\}/g, 'Amina').replace(/\{serial\}/g, 'SHS-0001').replace(/\{days\}/g, '12').replace(/\{daily_price\}/g, 'KES 50.00');

/** POST /collections/sms: a preview of the band (2 customers, one without a phone, one who asked for no texts) or the send. */
function bandSms(call: RecordedCall): Response | undefined {
  if (call.url !== '/payg/collections/sms') return undefined;
  const body = JSON.parse(call.body!) as { bucket: string; agent?: string; text: string; dry_run: boolean };
  const of = body.agent === undefined ? '' : body.agent === NO_AGENT ? ' who have no agent' : ` of agent ${body.agent}`;
  const reply: BandSmsReply = {
    message: body.dry_run ? `Would send 2 SMS to the customers 8–30 days without credit${of}` : `2 SMS queued to the customers 8–30 days without credit${of}`,
    bucket: body.bucket as BandSmsReply['bucket'],
    agent: body.agent ?? null,
    dry_run: body.dry_run,
    recipients: 2,
    skipped_no_phone: 1,
    skipped_opted_out: 1,
    skipped_open_ticket: 1,
    parts: 2,
    queued: body.dry_run ? 0 : 2,
    sample: [{ serial_number: 'SHS-0001', customer_name: 'Amina Wanjiru', recipient_number: '254712345678', text: fill(body.text), parts: 1 }],
  };
  return jsonResponse(200, reply);
}

async function openBand(role: 'owner' | 'staff', url = '/collections?bucket=8-30') {
  const api = mockCollectionsApi(() => [buildAccount()], bandSms);
  seedSession({ user: buildUser({ role }) });
  renderApp(url);
  await screen.findByRole('table', { name: 'Collections' });
  return { ...api, user: userEvent.setup() };
}

const posts = (calls: RecordedCall[]) => calls.filter((c) => c.url === '/payg/collections/sms').map((c) => JSON.parse(c.body!));

describe('Text This Band', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is offered to owners and admins only', async () => {
    await openBand('staff');
    expect(screen.queryByRole('button', { name: 'Text This Band' })).not.toBeInTheDocument();
  });

  it('previews the message filled in for the band, then sends it after a last confirmation', async () => {
    const { user, calls } = await openBand('owner');
    await user.click(screen.getAllByRole('button', { name: 'Text This Band' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Text the customers 8–30 days without credit' });
    expect(within(dialog).getByLabelText(/Message/)).toHaveValue(DEFAULT_BAND_TEXT);
    const preview = within(dialog).getByRole('region', { name: 'Preview' });
    expect(await within(preview).findByText(fill(DEFAULT_BAND_TEXT))).toBeInTheDocument();
    expect(preview).toHaveTextContent(/2 customers.*2 SMS.*1 without a phone.*1 asked for no texts.*1 being repaired/);
    expect(preview).toHaveTextContent('To Amina Wanjiru · 254712345678 · SHS-0001');
    expect(posts(calls)).toEqual([{ bucket: '8-30', text: DEFAULT_BAND_TEXT, dry_run: true }]);

    await user.click(within(dialog).getByRole('button', { name: 'Send to 2 Customers' }));
    expect(within(dialog).getByText('Send 2 SMS now?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Yes, Send 2 SMS' }));
    expect(await screen.findByText('2 SMS queued to the customers 8–30 days without credit')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /^Text the customers/ })).not.toBeInTheDocument());
    expect(posts(calls).filter((b) => !b.dry_run)).toEqual([{ bucket: '8-30', text: DEFAULT_BAND_TEXT, dry_run: false }]);
  });

  it('inserts placeholders, and says which words are not placeholders before asking the server', async () => {
    const { user, calls } = await openBand('owner', '/collections');
    await user.click(screen.getAllByRole('button', { name: 'Text This Band' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Text every customer out of credit' });
    const box = within(dialog).getByLabelText(/Message/);
    await user.clear(box);
    await user.type(box, 'Hi {{nmae}, ');
    expect(await within(dialog).findByText(/^\{nmae\} is not a placeholder: use \{name\}, \{full_name\}/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.clear(box);
    await user.type(box, 'Hi ');
    await user.click(within(dialog).getByRole('button', { name: '{name}' }));
    expect(box).toHaveValue('Hi {name}');
    await waitFor(() => expect(posts(calls).at(-1)).toEqual({ bucket: 'all', text: 'Hi {name}', dry_run: true }));
    expect(await within(dialog).findByRole('button', { name: 'Send to 2 Customers' })).toBeEnabled();
  });

  it("texts only the chosen agent's customers of the band: the agent in the title and in every POST", async () => {
    const { user, calls } = await openBand('owner', '/collections?bucket=8-30&agent=AGT-001');
    await user.click(screen.getAllByRole('button', { name: 'Text This Band' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Text the customers 8–30 days without credit — agent AGT-001' });
    expect(within(dialog).getByText(/only the customers of agent AGT-001/)).toBeInTheDocument();
    const preview = within(dialog).getByRole('region', { name: 'Preview' });
    expect(await within(preview).findByText(fill(DEFAULT_BAND_TEXT))).toBeInTheDocument();
    expect(posts(calls)).toEqual([{ bucket: '8-30', agent: 'AGT-001', text: DEFAULT_BAND_TEXT, dry_run: true }]);

    await user.click(within(dialog).getByRole('button', { name: 'Send to 2 Customers' }));
    await user.click(within(dialog).getByRole('button', { name: 'Yes, Send 2 SMS' }));
    expect(await screen.findByText('2 SMS queued to the customers 8–30 days without credit of agent AGT-001')).toBeInTheDocument();
    expect(posts(calls).filter((b) => !b.dry_run)).toEqual([{ bucket: '8-30', agent: 'AGT-001', text: DEFAULT_BAND_TEXT, dry_run: false }]);
  });

  it('texts the customers without an agent', async () => {
    const { user, calls } = await openBand('owner', '/collections?agent=%28no+agent%29');
    await user.click(screen.getAllByRole('button', { name: 'Text This Band' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Text every customer out of credit — customers without an agent' });
    expect(within(dialog).getByText(/only the customers without an agent/)).toBeInTheDocument();
    await waitFor(() => expect(posts(calls)).toEqual([{ bucket: 'all', agent: NO_AGENT, text: DEFAULT_BAND_TEXT, dry_run: true }]));
  });
});
