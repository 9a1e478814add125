import { ActionIcon, Badge, Button, Card, Center, Group, Image, Loader, Modal, SimpleGrid, Stack, Text, ThemeIcon, Title, Tooltip, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconDownload, IconFileTypePdf, IconId, IconPhotoOff, IconPlus, IconTrash } from '@tabler/icons-react';
import { DOCUMENT_KIND_LABELS, DOCUMENTS_PER_CUSTOMER_MAX, formatBytes, missingDocumentKinds, type CustomerDocument } from '@kidogo/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DateText } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { documentFileQuery, DOCUMENTS_FAILED, useDeleteDocument, useDocumentImage, useDocuments, useDownloadDocument } from '../api/documents';
import { AddDocumentModal } from './add-document-modal';

export const NO_DOCUMENTS = 'No documents yet';
export const NO_DOCUMENTS_HINT = "Add a photo of the customer's ID card, front and back, and the signed agreement: what a lender checks before a device goes out on credit.";

const isImage = (d: Pick<CustomerDocument, 'content_type'>) => d.content_type.startsWith('image/');

/** The photo itself, small; a PDF's icon. */
function Thumbnail({ doc }: { doc: CustomerDocument }) {
  const file = useDocumentImage(doc, isImage(doc));
  const url = file.data;
  const box = { h: 140, bg: 'var(--mantine-color-default-hover)' };
  if (!isImage(doc)) {
    return (
      <Center {...box}>
        <IconFileTypePdf size={48} stroke={1.4} color="var(--mantine-color-red-6)" aria-hidden />
      </Center>
    );
  }
  if (file.isError) {
    return (
      <Center {...box}>
        <IconPhotoOff size={32} stroke={1.4} aria-label="The photo could not be loaded" />
      </Center>
    );
  }
  return url ? (
    <Image src={url} h={140} fit="cover" alt={`${DOCUMENT_KIND_LABELS[doc.kind]}: ${doc.file_name}`} />
  ) : (
    <Center {...box}>
      <Loader size="sm" aria-label="Loading the photo" />
    </Center>
  );
}

/** A photo at full size, over the page. */
function PhotoViewer({ doc, onClose }: { doc: CustomerDocument | null; onClose: () => void }) {
  const file = useDocumentImage(doc ?? { customer_id: 0, document_id: 0, file_name: '' }, doc !== null);
  const url = doc ? file.data : undefined;
  return (
    <Modal opened={doc !== null} onClose={onClose} title={doc ? `${DOCUMENT_KIND_LABELS[doc.kind]}: ${doc.file_name}` : ''} size="xl" centered>
      {file.isError ? (
        <ErrorAlert title="Failed to open the document" message={errorMessage(file.error, 'Failed to open the document')} />
      ) : url && doc ? (
        <Image src={url} fit="contain" mah="75vh" alt={`${DOCUMENT_KIND_LABELS[doc.kind]}: ${doc.file_name}`} />
      ) : (
        <Center py="xl">
          <Loader aria-label="Loading the photo" />
        </Center>
      )}
      {doc?.note ? (
        <Text size="sm" c="dimmed" mt="sm">
          {doc.note}
        </Text>
      ) : null}
    </Modal>
  );
}

/** A PDF opens in a tab of its own (the browser's viewer), from the file fetched with the signed-in session. */
function useOpenPdf() {
  const [opening, setOpening] = useState<number | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const download = useDownloadDocument();
  const qc = useQueryClient();
  const open = async (doc: CustomerDocument) => {
    setOpening(doc.document_id);
    setFailed(null);
    // The tab is opened at the click (a browser lets a click open one), then given the file.
    const tab = window.open('', '_blank');
    try {
      const blob = await qc.fetchQuery(documentFileQuery(doc));
      const href = URL.createObjectURL(blob);
      if (tab) tab.location.href = href;
      else download.mutate(doc);
      setTimeout(() => URL.revokeObjectURL(href), 60_000);
    } catch (e) {
      tab?.close();
      setFailed(errorMessage(e, 'Failed to open the document'));
    } finally {
      setOpening(null);
    }
  };
  return { open, opening, failed };
}

function DocumentTile({
  doc,
  canDelete,
  onView,
  onOpenPdf,
  openingPdf,
}: {
  doc: CustomerDocument;
  canDelete: boolean;
  onView: (doc: CustomerDocument) => void;
  onOpenPdf: (doc: CustomerDocument) => void;
  openingPdf: boolean;
}) {
  const download = useDownloadDocument();
  const remove = useDeleteDocument();
  const [confirming, setConfirming] = useState(false);
  const label = DOCUMENT_KIND_LABELS[doc.kind];
  return (
    <Card withBorder padding="sm" radius="md" role="listitem" aria-label={`${label}: ${doc.file_name}`}>
      <Card.Section>
        <UnstyledButton
          w="100%"
          onClick={() => (isImage(doc) ? onView(doc) : onOpenPdf(doc))}
          aria-label={`View ${label}`}
          disabled={openingPdf}
        >
          <Thumbnail doc={doc} />
        </UnstyledButton>
      </Card.Section>
      <Stack gap={4} mt="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Badge variant="light" radius="sm" miw="max-content">
            {label}
          </Badge>
          <Group gap={4} wrap="nowrap">
            <Tooltip label="Download" withArrow>
              <ActionIcon variant="subtle" aria-label={`Download ${doc.file_name}`} loading={download.isPending} onClick={() => download.mutate(doc)}>
                <IconDownload size={16} />
              </ActionIcon>
            </Tooltip>
            {canDelete ? (
              <Tooltip label="Delete" withArrow>
                <ActionIcon variant="subtle" color="red" aria-label={`Delete ${doc.file_name}`} onClick={() => setConfirming(true)}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            ) : null}
          </Group>
        </Group>
        <Text size="sm" fw={500} truncate="end" title={doc.file_name}>
          {doc.file_name}
        </Text>
        <Text size="xs" c="dimmed">
          {formatBytes(doc.size_bytes)} · {doc.uploaded_by ?? 'unknown'} · <DateText value={doc.uploaded_at} />
        </Text>
        {doc.note ? (
          <Text size="xs" c="dimmed" lineClamp={2} title={doc.note}>
            {doc.note}
          </Text>
        ) : null}
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Delete Document" centered>
        <Text size="sm">
          Delete {label} <b>{doc.file_name}</b>? The file is removed for good; the activity log keeps who deleted it.
        </Text>
        <Group justify="flex-end" gap="sm" mt="lg">
          <Button variant="default" onClick={() => setConfirming(false)} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(doc, { onSuccess: () => setConfirming(false) })}>
            Delete
          </Button>
        </Group>
      </Modal>
    </Card>
  );
}

/** Whether the customer's file is complete (both sides of the ID card, the signed agreement), else what it lacks. */
function FileStatus({ held }: { held: readonly CustomerDocument[] }) {
  const missing = missingDocumentKinds(held);
  return missing.length === 0 ? (
    <Group gap={6} mb="md" c="green" data-testid="file-status">
      <IconCircleCheck size={16} aria-hidden />
      <Text size="sm" c="green" fw={500}>
        File complete: both sides of the ID card and the signed agreement
      </Text>
    </Group>
  ) : (
    <Group gap={6} mb="md" wrap="nowrap" align="flex-start" data-testid="file-status">
      <IconAlertTriangle size={16} color="var(--mantine-color-orange-6)" aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
      <Text size="sm">
        <Text span fw={600} c="orange.7">
          Missing:
        </Text>{' '}
        {missing.map((k) => DOCUMENT_KIND_LABELS[k]).join(', ')}
      </Text>
    </Group>
  );
}

/**
 * The customer's documents (ID card, photos, the signed agreement) on their
 * page: any user adds and views them, owners and admins delete them. An
 * erased customer has none, and none can be added.
 */
export function DocumentsCard({
  customerId,
  customerName,
  canAdd,
  canDelete,
}: {
  customerId: number;
  customerName: string;
  canAdd: boolean;
  canDelete: boolean;
}) {
  const documents = useDocuments(customerId);
  const [adding, setAdding] = useState(false);
  const [viewing, setViewing] = useState<CustomerDocument | null>(null);
  const pdf = useOpenPdf();
  const rows = documents.data?.data ?? [];
  const full = (documents.data?.remaining ?? 1) <= 0;

  return (
    <Card padding="lg" radius="md" mt="lg" role="region" aria-label="Documents">
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
            <IconId size={22} />
          </ThemeIcon>
          <div>
            <Title order={4}>Documents</Title>
            <Text size="xs" c="dimmed">
              {documents.data ? `${rows.length} of ${DOCUMENTS_PER_CUSTOMER_MAX}` : 'ID card, photos and the signed agreement'}
            </Text>
          </div>
        </Group>
        {canAdd ? (
          <Tooltip label={`${customerName} has ${DOCUMENTS_PER_CUSTOMER_MAX} documents: delete one to add another`} disabled={!full} withArrow>
            <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)} disabled={full || !documents.data}>
              Add Document
            </Button>
          </Tooltip>
        ) : null}
      </Group>
      {documents.data && canAdd ? <FileStatus held={rows} /> : null}
      {documents.isPending ? (
        <Center py="lg">
          <Loader size="sm" aria-label="Loading documents" />
        </Center>
      ) : documents.isError ? (
        <ErrorAlert title={DOCUMENTS_FAILED} message={errorMessage(documents.error, DOCUMENTS_FAILED)} onRetry={() => void documents.refetch()} retrying={documents.isFetching} />
      ) : rows.length === 0 ? (
        <Stack gap={4} py="sm">
          <Text size="sm" fw={500}>
            {NO_DOCUMENTS}
          </Text>
          {canAdd ? (
            <Text size="sm" c="dimmed">
              {NO_DOCUMENTS_HINT}
            </Text>
          ) : null}
        </Stack>
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="md" role="list" aria-label={`Documents of ${customerName}`}>
          {rows.map((doc) => (
            <DocumentTile
              key={doc.document_id}
              doc={doc}
              canDelete={canDelete}
              onView={setViewing}
              onOpenPdf={(d) => void pdf.open(d)}
              openingPdf={pdf.opening === doc.document_id}
            />
          ))}
        </SimpleGrid>
      )}
      {pdf.failed ? <ErrorAlert title="Failed to open the document" message={pdf.failed} /> : null}
      <PhotoViewer doc={viewing} onClose={() => setViewing(null)} />
      <AddDocumentModal customerId={customerId} customerName={customerName} held={rows} opened={adding} onClose={() => setAdding(false)} />
    </Card>
  );
}
