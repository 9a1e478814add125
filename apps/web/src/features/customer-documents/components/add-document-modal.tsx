import { Button, FileInput, Group, Modal, Progress, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPaperclip } from '@tabler/icons-react';
import {
  DOCUMENT_KIND_LABELS,
  DOCUMENT_KINDS,
  DOCUMENT_MAX_BYTES,
  DOCUMENT_NOTE_MAX,
  DOCUMENT_TYPES,
  formatBytes,
  type CustomerDocument,
  type DocumentKind,
} from '@kidogo/contracts';
import { useState, type FormEvent } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { ApiError, apiFieldErrors, errorMessage, type UploadProgress } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { refusalBeside } from '@/lib/validation';
import { useUploadDocument } from '../api/documents';

export const ADD_FAILED = 'Failed to add the document';
export const FILE_HINT = `A photo (JPEG, PNG or WebP) or a PDF, at most ${formatBytes(DOCUMENT_MAX_BYTES)}. Large photos are made smaller before they are sent.`;
export const WRONG_TYPE = 'File must be a photo (JPEG, PNG or WebP) or a PDF';

const KIND_CHOICES = DOCUMENT_KINDS.map((k) => ({ value: k, label: DOCUMENT_KIND_LABELS[k] }));

/** What a lender asks for first: the kind the customer does not have yet, in this order. */
const FIRST_NEEDED: DocumentKind[] = ['id_front', 'id_back', 'photo', 'agreement'];

export function nextKind(held: readonly Pick<CustomerDocument, 'kind'>[]): DocumentKind | null {
  return FIRST_NEEDED.find((k) => !held.some((d) => d.kind === k)) ?? null;
}

interface Errors {
  kind?: string;
  file?: string;
  note?: string;
}

/** The form's own checks, in the words the API uses for them. */
export function validateDocument(v: { kind: DocumentKind | null; file: File | null; note: string }): Errors {
  const errors: Errors = {};
  if (!v.kind) errors.kind = 'Kind is required';
  if (!v.file) errors.file = 'File is required';
  // A browser gives a type from the name; an empty one (an unknown extension) is left to the server, which reads the bytes.
  else if (v.file.type && !(DOCUMENT_TYPES as readonly string[]).includes(v.file.type)) errors.file = WRONG_TYPE;
  else if (!v.file.size) errors.file = 'File is empty';
  if (v.note.trim().length > DOCUMENT_NOTE_MAX) errors.note = `Note must be at most ${DOCUMENT_NOTE_MAX} characters`;
  return errors;
}

const LABELS: Record<keyof Errors, string> = { kind: 'Kind', file: 'File', note: 'Note' };

function AddDocumentForm({ customerId, held, onDone, onCancel }: { customerId: number; held: readonly CustomerDocument[]; onDone: () => void; onCancel: () => void }) {
  const [kind, setKind] = useState<DocumentKind | null>(() => nextKind(held));
  const [file, setFile] = useState<File | null>(null);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const adding = useUploadDocument(setProgress);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (adding.isPending) return;
    const found = validateDocument({ kind, file, note });
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length || !kind || !file) return;
    setProgress(null);
    adding.mutate(
      { customerId, kind, note, file },
      {
        onSuccess: (reply) => {
          toast.success(`${reply.data.file_name} (${formatBytes(reply.data.size_bytes)})`, { title: reply.message });
          onDone();
        },
        onError: (error) => {
          // A 400 names its field, and a file over the limit (413) is the file's: each goes under its input.
          const fields = apiFieldErrors(error);
          const shown: Errors = {};
          for (const [f, m] of Object.entries(fields)) if (f in LABELS) shown[f as keyof Errors] = `${LABELS[f as keyof Errors]} ${m}`;
          if (error instanceof ApiError && error.status === 413) shown.file = errorMessage(error).replace(/^file: /, 'File: ');
          setErrors(shown);
          setFailure(refusalBeside(error, fields, shown, ADD_FAILED));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Add Document">
      <Stack gap="md">
        <Select
          label="Kind"
          withAsterisk
          placeholder="What is it?"
          data={KIND_CHOICES}
          value={kind}
          onChange={(v) => {
            setKind(v as DocumentKind | null);
            setErrors((e) => ({ ...e, kind: undefined }));
          }}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          error={errors.kind}
          data-autofocus
        />
        <FileInput
          label="File"
          withAsterisk
          placeholder="Choose a photo or a PDF"
          description={FILE_HINT}
          accept={DOCUMENT_TYPES.join(',')}
          leftSection={<IconPaperclip size={16} />}
          value={file}
          onChange={(f) => {
            setFile(f);
            setErrors((e) => ({ ...e, file: undefined }));
            setFailure(null);
          }}
          clearable
          error={errors.file}
        />
        <TextInput
          label="Note"
          placeholder="Optional: e.g. taken at the installation"
          value={note}
          onChange={(e) => {
            setNote(e.currentTarget.value);
            setErrors((x) => ({ ...x, note: undefined }));
          }}
          error={errors.note}
        />
        {adding.isPending ? (
          <Stack gap={4}>
            <Progress value={progress?.percent ?? 100} animated striped={progress?.percent == null} aria-label="Upload progress" />
            <Text size="xs" c="dimmed">
              {progress?.percent != null ? `Sending… ${progress.percent}%` : 'Preparing the file…'}
            </Text>
          </Stack>
        ) : null}
        {failure ? <ErrorAlert title={ADD_FAILED} message={failure} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={adding.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={adding.isPending}>
            Add Document
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Add Document: a photo or a PDF for one customer. Full screen on a phone, where field staff take the photo. The form mounts afresh at each opening. */
export function AddDocumentModal({
  customerId,
  customerName,
  held,
  opened,
  onClose,
}: {
  customerId: number;
  customerName: string;
  held: readonly CustomerDocument[];
  opened: boolean;
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 48em)');
  return (
    <Modal opened={opened} onClose={onClose} title={`Add Document for ${customerName}`} size="lg" fullScreen={phone}>
      {opened ? <AddDocumentForm customerId={customerId} held={held} onDone={onClose} onCancel={onClose} /> : null}
    </Modal>
  );
}
