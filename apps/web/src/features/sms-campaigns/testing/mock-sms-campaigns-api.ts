import { audienceText, NO_AGENT } from '@kidogo/contracts';
import { jsonResponse, mockFetch, type RecordedCall } from '@/testing/fetch';
import type { Campaign, CampaignCancelReply, CampaignInput, CampaignReply, CampaignText, CampaignTextsReply } from '../api/types';

/** A bulk text to the customers with a device, sent yesterday by amina: 120 texts, 118 sent and 2 failed. */
export function buildCampaign(overrides: Partial<Campaign> = {}): Campaign {
  return {
    campaign_id: 1,
    text: 'Habari {name}, our Nakuru shop has moved to Kenyatta Avenue.',
    audience: { customers: 'with_device' },
    audience_text: 'Customers with a device',
    send_at: '2026-11-24T09:00:00Z',
    created_at: '2026-11-24T08:55:00Z',
    created_by: 'amina',
    recipients: 120,
    parts: 120,
    skipped_no_phone: 4,
    skipped_opted_out: 2,
    skipped_same_phone: 1,
    status: 'sent',
    delivery: { queued: 0, sent: 118, failed: 2, cancelled: 0 },
    cancelled_at: null,
    cancelled_by: null,
    ...overrides,
  };
}

/** One text of a bulk SMS: to Amina Wanjiru, sent on the first try. */
export function buildCampaignText(overrides: Partial<CampaignText> = {}): CampaignText {
  return {
    message_id: 1001,
    recipient_number: '254712345678',
    customer_id: 42,
    customer_name: 'Amina Wanjiru',
    text: 'Habari Amina, our Nakuru shop has moved to Kenyatta Avenue.',
    status: 'sent',
    attempts: 1,
    error: null,
    sent_at: '2026-11-24T09:02:12Z',
    ...overrides,
  };
}

/** The texts of buildCampaign() (campaign 1) the mock answers by default: Amina's sent, Baraka's failed after 3 tries, one to a number no customer has now. */
export const TEXTS = [
  buildCampaignText(),
  buildCampaignText({
    message_id: 1002,
    recipient_number: '254722000111',
    customer_id: 43,
    customer_name: 'Baraka Otieno',
    text: 'Habari Baraka, our Nakuru shop has moved to Kenyatta Avenue.',
    status: 'failed',
    attempts: 3,
    error: 'The provider refused the number: absent subscriber',
    sent_at: null,
  }),
  buildCampaignText({
    message_id: 1003,
    recipient_number: '254733999888',
    customer_id: null,
    customer_name: null,
    text: 'Habari Wanjiku, our Nakuru shop has moved to Kenyatta Avenue.',
  }),
];

/** The customers every preview finds: Amina and Baraka (and 1,232 more). */
const SAMPLE = [
  { customer_id: 42, customer_name: 'Amina Wanjiru', recipient_number: '254712345678' },
  { customer_id: 43, customer_name: 'Baraka Otieno', recipient_number: '254722000111' },
];

/** The text as it goes to a customer: {name} and {full_name} filled in. */
export const fillFor = (text: string, fullName: string) => text.replace(/\{name\}/g, fullName.split(' ')[0]!).replace(/\{full_name\}/g, fullName);

/** What POST /sms-campaigns answers for `body`: 1,234 texts (1,300 SMS); 5 without a phone, 3 who texted STOP, 2 on a number texted already. */
export function buildCampaignReply(body: CampaignInput): CampaignReply {
  const audience = body.audience ?? { customers: 'with_device' };
  const text = audienceText(audience);
  const dryRun = body.dry_run ?? false;
  return {
    message: dryRun ? `Would send 1,234 texts to ${text}` : body.send_at ? `1,234 texts to ${text} scheduled` : `1,234 texts to ${text} queued`,
    dry_run: dryRun,
    audience_text: text,
    recipients: 1234,
    skipped_no_phone: 5,
    skipped_opted_out: 3,
    skipped_same_phone: 2,
    parts: 1300,
    sample: SAMPLE.map((s) => ({ ...s, text: fillFor(body.text, s.customer_name), parts: 1 })),
    campaign: dryRun
      ? null
      : buildCampaign({
          campaign_id: 99,
          text: body.text,
          audience: { customers: 'with_device', ...audience },
          audience_text: text,
          status: body.send_at ? 'scheduled' : 'sending',
          recipients: 1234,
          parts: 1300,
          delivery: { queued: 1234, sent: 0, failed: 0, cancelled: 0 },
        }),
  };
}

export type Handler = (call: RecordedCall) => Response | undefined;

/** GET /collections/agents: two agents, and customers without one. */
export const AGENTS = ['AGT-001', 'AGT-002', NO_AGENT];

/**
 * The API of the screen, keeping its bulk texts as the server would: GET
 * /sms-campaigns answers them newest first, paged; POST /sms-campaigns
 * answers buildCampaignReply, and without dry_run adds the campaign made;
 * POST /sms-campaigns/{id}/cancel cancels one; GET /sms-campaigns/{id}/texts
 * answers `texts` of that campaign (TEXTS for campaign 1 by default) in their
 * order, of the status asked, paged (20 by default), and 404 for a campaign
 * it does not keep. `extra` answers anything first.
 */
export function mockSmsCampaignsApi(
  initial: Campaign[] = [buildCampaign()],
  extra: Handler = () => undefined,
  texts: Record<number, CampaignText[]> = { 1: TEXTS },
) {
  const state = { campaigns: [...initial], texts: { ...texts } };
  const api = mockFetch((call) => {
    const hit = extra(call);
    if (hit) return hit;
    if (call.url.startsWith('/payg/sms-campaigns?') && call.method === 'GET') {
      const q = new URL(call.url, 'http://x').searchParams;
      const page = Number(q.get('page'));
      const limit = Number(q.get('limit'));
      const all = state.campaigns;
      return jsonResponse(200, {
        data: all.slice((page - 1) * limit, page * limit),
        pagination: { total: all.length, total_pages: Math.ceil(all.length / limit), page, limit },
      });
    }
    const textsOf = /^\/payg\/sms-campaigns\/(\d+)\/texts(?:\?|$)/.exec(call.url);
    if (textsOf && call.method === 'GET') {
      const id = Number(textsOf[1]);
      if (!state.campaigns.some((x) => x.campaign_id === id)) return jsonResponse(404, { detail: 'Bulk SMS not found', message: 'Bulk SMS not found' });
      const q = new URL(call.url, 'http://x').searchParams;
      const page = Number(q.get('page') ?? 1);
      const limit = Number(q.get('limit') ?? 20);
      const status = q.get('status');
      const all = (state.texts[id] ?? []).filter((t) => !status || t.status === status);
      const reply: CampaignTextsReply = {
        data: all.slice((page - 1) * limit, page * limit),
        pagination: { total: all.length, total_pages: Math.ceil(all.length / limit), page, limit },
      };
      return jsonResponse(200, reply);
    }
    if (call.url === '/payg/sms-campaigns' && call.method === 'POST') {
      const reply = buildCampaignReply(JSON.parse(call.body!) as CampaignInput);
      if (reply.campaign) state.campaigns = [reply.campaign, ...state.campaigns];
      return jsonResponse(201, reply);
    }
    const cancel = /^\/payg\/sms-campaigns\/(\d+)\/cancel$/.exec(call.url);
    if (cancel && call.method === 'POST') {
      const c = state.campaigns.find((x) => x.campaign_id === Number(cancel[1]));
      if (!c) return jsonResponse(404, { detail: 'Bulk SMS not found', message: 'Bulk SMS not found' });
      const cancelled: Campaign = {
        ...c,
        status: 'cancelled',
        delivery: { ...c.delivery, queued: 0, cancelled: c.delivery.cancelled + c.delivery.queued },
        cancelled_at: '2026-11-25T10:00:00Z',
        cancelled_by: 'amina',
      };
      state.campaigns = state.campaigns.map((x) => (x.campaign_id === c.campaign_id ? cancelled : x));
      const reply: CampaignCancelReply = { message: `Bulk SMS cancelled: ${c.delivery.queued} texts not sent`, cancelled: c.delivery.queued, campaign: cancelled };
      return jsonResponse(200, reply);
    }
    if (call.url === '/payg/collections/agents') return jsonResponse(200, { data: { agents: AGENTS, truncated: false } });
    if (call.url.startsWith('/payg/notifications')) return jsonResponse(200, { data: [] });
    return jsonResponse(404, { detail: 'Not found', message: 'Not found' });
  });
  return { ...api, state };
}

/** The bodies POSTed to /sms-campaigns, parsed. */
export const campaignPosts = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'POST' && c.url === '/payg/sms-campaigns').map((c) => JSON.parse(c.body!) as CampaignInput);

/** The GET /sms-campaigns URLs called (the list, not the texts of one). */
export const listCalls = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/payg/sms-campaigns?')).map((c) => c.url);

/** The GET /sms-campaigns/{id}/texts URLs called. */
export const textsCalls = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'GET' && /^\/payg\/sms-campaigns\/\d+\/texts/.test(c.url)).map((c) => c.url);

/** A 400 of the API naming `field`, as its validation answers. */
export const badRequest = (field: string, message: string) =>
  jsonResponse(400, { detail: `${field}: ${message}`, message: `${field}: ${message}`, errors: [{ field, message }] });

/** A 409 of the API. */
export const conflict = (detail: string) => jsonResponse(409, { detail, message: detail });
