import { Button, Group, Loader, ScrollArea, Stack, Text, Textarea, Timeline } from '@mantine/core';
import { IconNote } from '@tabler/icons-react';
import { TICKET_NOTE_MAX } from '@kidogo/contracts';
import { useEffect, useId, useRef, useState, type CSSProperties } from 'react';
import { DateText } from '@/components/ui/date-text';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useAddTicketNote } from '../api/add-ticket-note';
import { useTicketHistory } from '../api/get-ticket-history';

export const HISTORY_FAILED = 'Failed to load the history';
export const NOTE_FAILED = 'Failed to add the note';
export const NOTE_REQUIRED = 'Write the note first';

/** Who made a change when nobody signed in did (an import, a job). */
export const SYSTEM_ACTOR = 'System';

/**
 * A history line without what the modal already says: "Ticket #4 (device
 * SHS-1004): Open → In progress" reads "Open → In progress", "Ticket #4
 * opened for device SHS-1004: Device fault" reads "Opened for device
 * SHS-1004: Device fault".
 */
export function historyText(description: string): string {
  const text = description.replace(/^Ticket #\d+ \(device .*?\): /, '').replace(/^Ticket #\d+ /, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// Mantine spaces timeline items (and runs their line) by spacing-xl: too airy for a list inside a form.
const COMPACT: CSSProperties & Record<`--${string}`, string> = { '--mantine-spacing-xl': 'var(--mantine-spacing-sm)' };

const heading = (id: string) => (
  <Text id={id} size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.3}>
    History
  </Text>
);

/**
 * Who opened the ticket, moved it on, handed it over and resolved it, from
 * the Activity Log, oldest first as the API gives them: the latest is at the
 * bottom, scrolled into view when the list is longer than its box. Nothing
 * is shown for a ticket without any (opened before the log kept them).
 */
export function TicketHistory({ ticketId }: { ticketId: number }) {
  const history = useTicketHistory(ticketId);
  const titleId = useId();
  const viewport = useRef<HTMLDivElement>(null);

  // The latest line in view; again when a save adds one.
  useEffect(() => {
    const box = viewport.current;
    if (box && history.data?.length) box.scrollTop = box.scrollHeight;
  }, [history.data]);

  if (history.isSuccess && history.data.length === 0) return <AddNote ticketId={ticketId} />;
  return (
    <Stack gap={6} component="section" aria-labelledby={titleId}>
      {heading(titleId)}
      {history.isPending ? (
        <Group gap="xs" role="status" aria-label="Loading the history">
          <Loader size="xs" />
        </Group>
      ) : history.isError ? (
        <Text size="sm" c="red">
          {HISTORY_FAILED}: {errorMessage(history.error, 'no reply')}
        </Text>
      ) : (
        <ScrollArea.Autosize mah={200} type="auto" scrollbars="y" offsetScrollbars="y" viewportRef={viewport}>
          <Timeline bulletSize={10} lineWidth={2} active={history.data.length - 1} role="list" aria-labelledby={titleId} style={COMPACT} pt={4}>
            {history.data.map((e, i) => (
              <Timeline.Item key={`${e.at}-${i}`} role="listitem">
                {/* Raised so the bullet sits level with the middle of the first line. */}
                <Text size="sm" lh={1.3} mt={-4} style={{ overflowWrap: 'anywhere' }}>
                  {historyText(e.description)}
                </Text>
                <Text size="xs" c="dimmed" mt={2}>
                  <DateText value={e.at} withTime size="xs" c="dimmed" /> · {e.actor_username ?? SYSTEM_ACTOR}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        </ScrollArea.Autosize>
      )}
      <AddNote ticketId={ticketId} />
    </Stack>
  );
}

/**
 * A note on the ticket without moving it on (a visit, a part ordered, a call): added on its own, apart from the
 * form's Save, and shown last in the history; whoever opened the ticket or is assigned it is told.
 */
function AddNote({ ticketId }: { ticketId: number }) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddTicketNote();
  const submit = () => {
    const text = note.trim();
    if (!text) return setError(NOTE_REQUIRED);
    add.mutate(
      { ticketId, note: text },
      {
        onSuccess: () => {
          setNote('');
          setError(null);
          toast.success(`Note added to ticket #${ticketId}`);
        },
        onError: (e) => setError(errorMessage(e, NOTE_FAILED)),
      },
    );
  };
  return (
    <Group align="flex-start" wrap="nowrap" gap="xs">
      <Textarea
        label="Note"
        placeholder="What was found or done: a visit, a part ordered, a call"
        autosize
        minRows={1}
        maxRows={4}
        maxLength={TICKET_NOTE_MAX}
        value={note}
        error={error}
        onChange={(e) => {
          setNote(e.currentTarget.value);
          if (error) setError(null);
        }}
        style={{ flex: 1 }}
      />
      <Button type="button" variant="light" mt={25} leftSection={<IconNote size={16} />} loading={add.isPending} onClick={submit}>
        Add Note
      </Button>
    </Group>
  );
}
