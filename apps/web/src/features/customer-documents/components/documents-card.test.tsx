import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CustomerDocument, CustomerDocumentsReply } from '@kidogo/contracts';
import { buildUser, seedSession } from '@/testing/factories';
import { captureDownloads } from '@/testing/downloads';
import { jsonResponse, mockFetch } from '@/testing/fetch';
import { renderApp } from '@/testing/render';
import { stubXhrUpload } from '@/testing/upload';

const details = (status = 'active') => ({
  data: {
    customer_info: {
      customer_id: 11,
      customer_name: 'Chebet Kiprop',
      phone_contact: '0733345603',
      email: null,
      status,
      sms_opted_out_at: null,
      sms_opt_out_source: null,
      device_serial: null,
      product_name: null,
      product_oem: null,
    },
    payment_template: null,
    payment_summary: { total_paid: '0.00', free_code_price: '0.00', remaining_balance: '0.00', payment_progress: 0, is_fully_paid: false, payment_count: 0 },
    payment_history: [],
    devices: [],
  },
});

const doc = (overrides: Partial<CustomerDocument>): CustomerDocument => ({
  document_id: 1,
  customer_id: 11,
  kind: 'id_front',
  file_name: 'chebet-id-front.jpg',
  content_type: 'image/jpeg',
  size_bytes: 245_760,
  sha256: 'a'.repeat(64),
  note: null,
  uploaded_by: 'otieno',
  uploaded_at: '2026-11-20T09:30:00Z',
  ...overrides,
});

const FRONT = doc({ document_id: 2, note: 'Taken at the shop' });
const AGREEMENT = doc({ document_id: 1, kind: 'agreement', file_name: 'agreement.pdf', content_type: 'application/pdf', size_bytes: 1_572_864 });

async function openPage({
  documents = [FRONT, AGREEMENT],
  role = 'admin',
  status = 'active',
}: { documents?: CustomerDocument[]; role?: 'owner' | 'admin' | 'staff'; status?: string } = {}) {
  let current: CustomerDocument[] = documents;
  const api = mockFetch((call) => {
    if (call.url === '/payg/customers/11/payment-details') return jsonResponse(200, details(status));
    if (call.url === '/payg/customers/11/documents') {
      const reply: CustomerDocumentsReply = { data: current, remaining: 30 - current.length };
      return jsonResponse(200, reply);
    }
    if (call.url.startsWith('/payg/customers/11/documents/') && call.method === 'DELETE') {
      const id = Number(call.url.split('/').pop());
      current = current.filter((d) => d.document_id !== id);
      return jsonResponse(200, { message: 'Signed agreement deleted' });
    }
    if (call.url.startsWith('/payg/customers/11/documents/2/file')) {
      return new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), {
        status: 200,
        headers: { 'Content-Type': 'image/jpeg', 'Content-Disposition': `inline; filename="chebet-id-front.jpg"` },
      });
    }
    if (call.url.startsWith('/payg/customers/11/documents/1/file')) {
      return new Response('%PDF-1.4', { status: 200, headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="agreement.pdf"' } });
    }
    return jsonResponse(200, { data: [] });
  });
  seedSession({ user: buildUser({ role }) });
  renderApp('/customer-payment-details/11');
  const card = await screen.findByRole('region', { name: 'Documents' }, { timeout: 5000 });
  return { ...api, card, setDocuments: (d: CustomerDocument[]) => (current = d) };
}

describe('Documents card', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it("lists the customer's documents newest first, a photo as its picture and a PDF as an icon", async () => {
    const { card } = await openPage();
    const list = await within(card).findByRole('list', { name: 'Documents of Chebet Kiprop' });
    const tiles = within(list).getAllByRole('listitem');
    expect(tiles.map((t) => t.getAttribute('aria-label'))).toEqual(['ID card (front): chebet-id-front.jpg', 'Signed agreement: agreement.pdf']);
    expect(card).toHaveTextContent('2 of 30');
    // The file lacks the back of the ID card.
    expect(within(card).getByTestId('file-status')).toHaveTextContent('Missing: ID card (back)');
    expect(tiles[0]).toHaveTextContent('240 KB · otieno');
    expect(tiles[0]).toHaveTextContent('Taken at the shop');
    expect(tiles[1]).toHaveTextContent('1.5 MB · otieno');
    const photo = await within(tiles[0]!).findByRole('img', { name: 'ID card (front): chebet-id-front.jpg' });
    expect(photo.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
    expect(within(tiles[1]!).queryByRole('img')).toBeNull();
    // Owners and admins delete; the download is everyone's.
    expect(within(tiles[1]!).getByRole('button', { name: 'Delete agreement.pdf' })).toBeInTheDocument();
    expect(within(tiles[1]!).getByRole('button', { name: 'Download agreement.pdf' })).toBeInTheDocument();
  });

  it('shows a photo at full size, and downloads a document under its own name', async () => {
    const names = captureDownloads();
    const { card, calls } = await openPage();
    await userEvent.click(await within(card).findByRole('button', { name: 'View ID card (front)' }));
    const viewer = await screen.findByRole('dialog', { name: 'ID card (front): chebet-id-front.jpg' });
    expect(await within(viewer).findByRole('img', { name: 'ID card (front): chebet-id-front.jpg' })).toBeInTheDocument();
    expect(viewer).toHaveTextContent('Taken at the shop');
    await userEvent.click(within(card).getByRole('button', { name: 'Download agreement.pdf' }));
    await waitFor(() => expect(names).toEqual(['agreement.pdf']));
    expect(calls.some((c) => c.url === '/payg/customers/11/documents/1/file?download=true')).toBe(true);
  });

  it('says what to add when there is nothing yet', async () => {
    const { card } = await openPage({ documents: [], role: 'staff' });
    expect(await within(card).findByText('No documents yet')).toBeInTheDocument();
    expect(card).toHaveTextContent("Add a photo of the customer's ID card, front and back, and the signed agreement");
    expect(card).toHaveTextContent('0 of 30');
    expect(within(card).getByTestId('file-status')).toHaveTextContent('Missing: ID card (front), ID card (back), Signed agreement');
  });

  it('says when the file is complete: both sides of the ID card and the signed agreement', async () => {
    const { card } = await openPage({ documents: [doc({ document_id: 3, kind: 'id_back', file_name: 'back.jpg' }), FRONT, AGREEMENT] });
    expect(await within(card).findByTestId('file-status')).toHaveTextContent('File complete: both sides of the ID card and the signed agreement');
  });

  it('lets staff view and download, not delete', async () => {
    const { card } = await openPage({ documents: [AGREEMENT], role: 'staff' });
    expect(await within(card).findByRole('button', { name: 'Download agreement.pdf' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Delete agreement.pdf' })).toBeNull();
  });

  it('adds a photo with its kind and note, suggesting the kind the customer lacks first', async () => {
    const sent = stubXhrUpload({ status: 201, body: { message: 'ID card (back) added', data: doc({ document_id: 3, kind: 'id_back', file_name: 'back.png', content_type: 'image/png', size_bytes: 4 }) } });
    const { card, setDocuments } = await openPage({ documents: [FRONT] });
    await userEvent.click(await within(card).findByRole('button', { name: 'Add Document' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Document for Chebet Kiprop' });
    // The front of the ID card is there: the back is next.
    expect(within(dialog).getByRole('combobox', { name: 'Kind' })).toHaveValue('ID card (back)');
    expect(dialog).toHaveTextContent('A photo (JPEG, PNG or WebP) or a PDF, at most 10 MB.');
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'back.png', { type: 'image/png' });
    await userEvent.upload(dialog.querySelector('input[type="file"]') as HTMLInputElement, file);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Note' }), '  Worn at the corner ');
    setDocuments([doc({ document_id: 3, kind: 'id_back', file_name: 'back.png', content_type: 'image/png', size_bytes: 4 }), FRONT]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Document' }));
    expect(await screen.findByText('ID card (back) added')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Document for Chebet Kiprop' })).toBeNull());
    expect(sent).toHaveLength(1);
    expect(sent[0]!.get('kind')).toBe('id_back');
    expect(sent[0]!.get('note')).toBe('Worn at the corner');
    expect((sent[0]!.get('file') as File).name).toBe('back.png');
    expect(await within(card).findByRole('listitem', { name: 'ID card (back): back.png' })).toBeInTheDocument();
  });

  it('refuses a file that is neither a photo nor a PDF before sending it, and shows why the server refused one', async () => {
    const sent = stubXhrUpload({ status: 409, body: { detail: 'This file was already added for Chebet Kiprop (document 2, ID card (front))', message: 'This file was already added for Chebet Kiprop (document 2, ID card (front))' } });
    const { card } = await openPage({ documents: [] });
    await userEvent.click(await within(card).findByRole('button', { name: 'Add Document' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Document for Chebet Kiprop' });
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    await userEvent.upload(input, new File(['a,b'], 'list.csv', { type: 'text/csv' }), { applyAccept: false });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Document' }));
    expect(await within(dialog).findByText('File must be a photo (JPEG, PNG or WebP) or a PDF')).toBeInTheDocument();
    expect(sent).toHaveLength(0);

    await userEvent.upload(input, new File([new Uint8Array([0xff, 0xd8, 0xff])], 'front.jpg', { type: 'image/jpeg' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Document' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to add the document');
    expect(alert).toHaveTextContent('This file was already added for Chebet Kiprop (document 2, ID card (front))');
    expect(sent).toHaveLength(1);
  });

  it('puts a refusal that names a field under it', async () => {
    stubXhrUpload({ status: 400, body: { detail: 'note: must be at most 200 characters', message: 'note: must be at most 200 characters', errors: [{ field: 'note', message: 'must be at most 200 characters' }] } });
    const { card } = await openPage({ documents: [] });
    await userEvent.click(await within(card).findByRole('button', { name: 'Add Document' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Document for Chebet Kiprop' });
    await userEvent.upload(dialog.querySelector('input[type="file"]') as HTMLInputElement, new File(['%PDF-1.4'], 'a.pdf', { type: 'application/pdf' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Note' }), 'short');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Document' }));
    expect(await within(dialog).findByText('Note must be at most 200 characters')).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it('deletes a document after asking', async () => {
    const { card, calls } = await openPage();
    await userEvent.click(await within(card).findByRole('button', { name: 'Delete agreement.pdf' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Document' });
    expect(confirm).toHaveTextContent('Delete Signed agreement agreement.pdf? The file is removed for good; the activity log keeps who deleted it.');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Signed agreement deleted')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/payg/customers/11/documents/1']);
    await waitFor(() => expect(within(card).queryByRole('listitem', { name: 'Signed agreement: agreement.pdf' })).toBeNull());
  });

  it('offers no Add Document for an erased customer', async () => {
    const { card } = await openPage({ documents: [], status: 'erased' });
    expect(await within(card).findByText('No documents yet')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Add Document' })).toBeNull();
    expect(card).not.toHaveTextContent("Add a photo of the customer's ID card");
    expect(within(card).queryByTestId('file-status')).toBeNull();
  });
});
