import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { SecretValue } from '../api/types';

export interface KeyValueRow {
  id: number;
  key: string;
  value: string;
}

let nextId = 1;
export const kvRow = (key = '', value = ''): KeyValueRow => ({ id: nextId++, key, value });

export const rowsFromObject = (obj: Record<string, unknown> | null | undefined): KeyValueRow[] => {
  const rows = Object.entries(obj ?? {}).map(([k, v]) => kvRow(k, v === null || v === undefined ? '' : String(v)));
  return rows.length ? rows : [kvRow()];
};

/** Rows with a key become the object; true/false and numbers keep their type. */
export function objectFromRows(rows: KeyValueRow[]): Record<string, SecretValue> {
  const out: Record<string, SecretValue> = {};
  for (const r of rows) {
    const key = r.key.trim();
    if (!key) continue;
    const v = r.value.trim();
    out[key] = v === 'true' ? true : v === 'false' ? false : /^-?\d+(\.\d+)?$/.test(v) && v.length < 16 ? Number(v) : r.value;
  }
  return out;
}

/** Secret settings as name/value pairs. Values read back masked keep what is stored when saved unchanged. */
export function KeyValueEditor({
  label,
  rows,
  onChange,
  hint,
}: {
  label: string;
  rows: KeyValueRow[];
  onChange: (rows: KeyValueRow[]) => void;
  hint?: string;
}) {
  const set = (id: number, patch: Partial<KeyValueRow>) => onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
      {rows.map((r, i) => (
        <Group key={r.id} gap="xs" wrap="nowrap">
          <TextInput aria-label={`${label} name ${i + 1}`} placeholder="name" value={r.key} onChange={(e) => set(r.id, { key: e.currentTarget.value })} w="40%" />
          <TextInput aria-label={`${label} value ${i + 1}`} placeholder="value" value={r.value} onChange={(e) => set(r.id, { value: e.currentTarget.value })} style={{ flex: 1 }} />
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove ${label.toLowerCase()} ${i + 1}`}
            onClick={() => onChange(rows.length > 1 ? rows.filter((x) => x.id !== r.id) : [kvRow()])}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Button size="xs" variant="subtle" leftSection={<IconPlus size={14} />} onClick={() => onChange([...rows, kvRow()])} w="fit-content">
        Add field
      </Button>
    </Stack>
  );
}

/** A masked secret object shown as name: value lines. */
export function SecretSummary({ value }: { value: Record<string, unknown> }) {
  const entries = Object.entries(value ?? {});
  if (!entries.length) {
    return (
      <Text size="xs" c="dimmed">
        —
      </Text>
    );
  }
  return (
    <Stack gap={0}>
      {entries.map(([k, v]) => (
        <Text key={k} size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
          {k}: {v === null || v === undefined ? '' : String(v)}
        </Text>
      ))}
    </Stack>
  );
}
