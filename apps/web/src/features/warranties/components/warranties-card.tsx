import { ActionIcon, Autocomplete, Box, Button, Group, NumberInput, Stack, Table, Text } from '@mantine/core';
import { IconPlus, IconCertificate, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { WARRANTY_MONTHS_MAX, ZWarrantySettingsInputSchema, type WarrantySettings } from '@kidogo/contracts';
import { ErrorAlert } from '@/components/ui/error-alert';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { managesOrganization, useSession } from '@/lib/session';
import { SettingsFormCard } from '@/features/settings/components/settings-form-card';
import { useWarrantySettings } from '../api/get-warranty-settings';
import { useUpdateWarrantySettings } from '../api/update-warranty-settings';

export const WARRANTIES_SAVE_FAILED = 'Failed to save the warranties';
export const NO_WARRANTIES = "No warranties set: a device's page and a swap say nothing about warranty.";

type Field = 'product_name' | 'months';
const LABELS: Record<Field, string> = { product_name: 'Product', months: 'Months' };

interface Row {
  id: number;
  product_name: string;
  /** '' while the box is empty. */
  months: number | string;
}

let nextId = 1;
const rowOf = (product_name = '', months: number | string = ''): Row => ({ id: nextId++, product_name, months });

const key = (name: string) => name.trim().toLowerCase();
/** A row added and left untouched: not sent. */
const blank = (r: Row) => r.product_name.trim() === '' && r.months === '';

/** "must be at most 120" under its box reads "Months must be at most 120"; a sentence of its own ("X is already in the list (row 1)") stays as it is. */
const fieldMessage = (field: Field, message: string) => (/^(is|must|has|cannot)\b/.test(message) ? `${LABELS[field]} ${message}` : message);

/** The rows of the list, ruled apart as a table's are. */
const ROW = { borderBottom: '1px solid var(--mantine-color-default-border)' } as const;

type RowErrors = Record<number, Partial<Record<Field, string>>>;

/** The rows sent, as the PUT body: the whole list. */
const bodyOf = (rows: Row[]) => ({
  warranties: rows.map((r) => ({ product_name: r.product_name.trim(), months: r.months === '' ? Number.NaN : Number(r.months) })),
});

/** Errors named warranties.N.field (the contract's check or the API's 400) under the boxes of the Nth row sent. */
function rowErrors(sent: Row[], named: Iterable<[string, string]>): { rows: RowErrors; list: string | null } {
  const rows: RowErrors = {};
  let list: string | null = null;
  for (const [name, message] of named) {
    const hit = /^warranties\.(\d+)\.(product_name|months)$/.exec(name);
    const row = hit ? sent[Number(hit[1])] : undefined;
    if (!hit || !row) {
      list ??= name ? `${name}: ${message}` : message;
      continue;
    }
    const field = hit[2] as Field;
    const already = rows[row.id] ?? {};
    if (!already[field]) rows[row.id] = { ...already, [field]: fieldMessage(field, message) };
  }
  return { rows, list };
}

/** How many of the organization's devices a saved product's warranty covers ("40 devices" with `words`); a dash for one not saved yet. */
function Devices({ count, words = false }: { count: number | undefined; words?: boolean }) {
  if (count === undefined) {
    return (
      <Text span size="sm" c="dimmed" title="Counted once saved">
        —
      </Text>
    );
  }
  const text = words ? (count === 1 ? '1 device' : `${count.toLocaleString()} devices`) : count.toLocaleString();
  return (
    <Text span size="sm" c={count === 0 ? 'orange' : undefined} title={count === 0 ? 'No device has this product name' : undefined} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
      {text}
    </Text>
  );
}

function Empty() {
  return (
    <Text size="sm" c="dimmed">
      {NO_WARRANTIES}
    </Text>
  );
}

/** Staff read the list: a device's page and a swap say what it means for a device. */
function WarrantiesList({ settings }: { settings: WarrantySettings }) {
  if (!settings.warranties.length) return <Empty />;
  return (
    <Table aria-label="Warranties" highlightOnHover={false}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Product</Table.Th>
          <Table.Th ta="right">Months</Table.Th>
          <Table.Th ta="right">Devices</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {settings.warranties.map((w) => (
          <Table.Tr key={w.product_name}>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{w.product_name}</Table.Td>
            <Table.Td ta="right">{w.months}</Table.Td>
            <Table.Td ta="right">
              <Devices count={w.devices} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function WarrantiesForm({ settings }: { settings: WarrantySettings }) {
  const [rows, setRows] = useState<Row[]>(() => settings.warranties.map((w) => rowOf(w.product_name, w.months)));
  const [errors, setErrors] = useState<RowErrors>({});
  const [listError, setListError] = useState<string | null>(null);
  const save = useUpdateWarrantySettings();

  const saved = new Map(settings.warranties.map((w) => [key(w.product_name), w]));
  const sent = rows.filter((r) => !blank(r));
  const changed =
    sent.length !== settings.warranties.length ||
    sent.some((r, i) => r.product_name.trim() !== settings.warranties[i]!.product_name || Number(r.months) !== settings.warranties[i]!.months);
  // Every product of the organization's devices and those saved, less the ones another row has.
  const products = [...new Set([...settings.warranties.map((w) => w.product_name), ...settings.other_products])].sort((a, b) => a.localeCompare(b));

  const set = (id: number, field: Field, value: string | number) => {
    setRows((all) => all.map((r) => (r.id === id ? { ...r, [field]: value } : r)));
    setErrors((e) => ({ ...e, [id]: { ...e[id], [field]: undefined } }));
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const body = bodyOf(sent);
    const checked = ZWarrantySettingsInputSchema.safeParse(body);
    if (!checked.success) {
      const found = rowErrors(
        sent,
        checked.error.issues.map((i) => {
          const [, at, field] = i.path;
          // An empty Months box reads as required, not as "not a whole number".
          const message = field === 'months' && sent[Number(at)]?.months === '' ? 'is required' : i.message;
          return [i.path.map(String).join('.'), message] as [string, string];
        }),
      );
      setErrors(found.rows);
      setListError(found.list);
      return;
    }
    save.mutate(body, {
      onSuccess: () => {
        setErrors({});
        setListError(null);
        toast.success('Warranties saved');
      },
      onError: (error) => {
        const found = rowErrors(sent, Object.entries(apiFieldErrors(error)));
        setErrors(found.rows);
        setListError(null);
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Warranties">
      <Stack gap="md">
        {save.isError ? <ErrorAlert title={WARRANTIES_SAVE_FAILED} message={errorMessage(save.error, WARRANTIES_SAVE_FAILED)} /> : null}
        {rows.length ? (
          <Stack gap={0}>
            {rows.map((r, i) => {
              const taken = new Set(rows.filter((x) => x.id !== r.id).map((x) => key(x.product_name)));
              const name = r.product_name.trim();
              return (
                // One line where the card is wide; on a phone the name has a line of its own, the months and devices under it.
                <Group key={r.id} role="group" aria-label={`Warranty ${i + 1}`} gap="xs" align="flex-start" py={8} style={ROW}>
                  <Autocomplete
                    aria-label={`Product ${i + 1}`}
                    placeholder="Choose or type a product name"
                    data={products.filter((p) => !taken.has(key(p)))}
                    value={r.product_name}
                    onChange={(v) => set(r.id, 'product_name', v)}
                    maxLength={200}
                    error={errors[r.id]?.product_name}
                    disabled={save.isPending}
                    style={{ flex: '1 1 200px' }}
                  />
                  <Group gap="xs" align="flex-start" wrap="nowrap" ml="auto">
                    <NumberInput
                      aria-label={`Months ${i + 1}`}
                      placeholder="12"
                      w={104}
                      min={1}
                      max={WARRANTY_MONTHS_MAX}
                      allowDecimal={false}
                      allowNegative={false}
                      hideControls
                      rightSection={
                        <Text span size="xs" c="dimmed">
                          months
                        </Text>
                      }
                      rightSectionWidth={50}
                      rightSectionPointerEvents="none"
                      value={r.months}
                      onChange={(v) => set(r.id, 'months', v)}
                      error={errors[r.id]?.months}
                      disabled={save.isPending}
                    />
                    <Box w={68} pt={7} ta="right">
                      <Devices count={saved.get(key(name))?.devices} words />
                    </Box>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      mt={4}
                      aria-label={`Remove ${name || `row ${i + 1}`}`}
                      onClick={() => setRows((all) => all.filter((x) => x.id !== r.id))}
                      disabled={save.isPending}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                </Group>
              );
            })}
          </Stack>
        ) : (
          <Empty />
        )}
        {listError ? (
          <Text size="sm" c="red">
            {listError}
          </Text>
        ) : null}
        <Group justify="space-between">
          <Button variant="default" leftSection={<IconPlus size={16} />} onClick={() => setRows((all) => [...all, rowOf()])} disabled={save.isPending}>
            Add Product
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!changed}>
            Save Warranties
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Warranties: how many months each product is under warranty, from the day a
 * device's account began. A device's page and a swap say whether it is in
 * warranty. Owners and admins edit the list; staff read it.
 */
export function WarrantiesCard() {
  const { user } = useSession();
  const manages = managesOrganization(user);
  return (
    <SettingsFormCard
      title="Warranties"
      icon={<IconCertificate size={20} />}
      description="How many months each product is under warranty, from the day its account began. A swapped device's replacement keeps the warranty of the device it replaced."
      query={useWarrantySettings()}
      loadFailed="Failed to load the warranties"
    >
      {(data) =>
        manages ? (
          <WarrantiesForm key={data.warranties.map((w) => `${w.product_name}:${w.months}:${w.devices}`).join('|')} settings={data} />
        ) : (
          <WarrantiesList settings={data} />
        )
      }
    </SettingsFormCard>
  );
}
