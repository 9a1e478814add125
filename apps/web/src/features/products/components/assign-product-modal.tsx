import { Alert, Button, Group, Loader, Modal, Paper, Radio, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { IconInfoCircle, IconSearch } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useAssignProduct } from '../api/assign-product';
import { useCustomerSearch } from '../api/search-customers';
import type { Product } from '../api/types';
import { CreditCheckPanel, useCreditDecision } from '@/features/credit-check/components/credit-check-panel';

export const ASSIGN_TEXTS = {
  noCustomer: 'Please select a customer to assign the product to.',
  noTerm: 'Please enter a search term to find customers.',
  noResults: 'No customers found with that search term.',
  searchFailed: 'Failed to search customers. Please try again.',
  assignFailed: 'Failed to assign product',
} as const;

/** Assign Product: find a customer by name (50 at most), pick one, assign the device. */
export function AssignProductModal({ product, onClose }: { product: Product | null; onClose: () => void }) {
  const assign = useAssignProduct();
  const close = () => {
    if (assign.isPending) return;
    assign.reset();
    onClose();
  };
  return (
    <Modal opened={product !== null} onClose={close} title="Assign Product" size="lg" centered>
      {product ? <AssignProductForm key={product.serial_number} product={product} assign={assign} onCancel={close} onDone={onClose} /> : null}
    </Modal>
  );
}

function AssignProductForm({
  product,
  assign,
  onCancel,
  onDone,
}: {
  product: Product;
  assign: ReturnType<typeof useAssignProduct>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const [term, setTerm] = useState('');
  const [submitted, setSubmitted] = useState<string | null>(null);
  const [selected, setSelectedId] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  /** An owner's or admin's reason to give the device against the follow-on sales rule: the chosen customer's only. */
  const [overrideReason, setOverrideReason] = useState('');
  const setSelected = (id: string | null) => {
    setSelectedId(id);
    setOverrideReason('');
    assign.reset();
  };
  const search = useCustomerSearch(submitted);
  const customers = search.data ?? [];
  const credit = useCreditDecision(selected === null ? null : Number(selected), overrideReason);

  const runSearch = () => {
    const t = term.trim();
    setSelected(null);
    assign.reset();
    if (!t) {
      setSubmitted(null);
      setNotice(ASSIGN_TEXTS.noTerm);
      return;
    }
    setNotice(null);
    if (t === submitted) void search.refetch();
    else setSubmitted(t);
  };

  const submit = () => {
    const customer = customers.find((c) => String(c.customer_id) === selected);
    if (!customer) {
      setNotice(ASSIGN_TEXTS.noCustomer);
      return;
    }
    setNotice(null);
    assign.mutate(
      {
        customer_id: customer.customer_id,
        item_serial_number: product.serial_number,
        ...(credit.decision.overrideReason ? { override_reason: credit.decision.overrideReason } : {}),
      },
      {
        onSuccess: () => {
          toast.success(`Product ${product.serial_number} assigned to ${customer.customer_name}`);
          assign.reset();
          onDone();
        },
      },
    );
  };

  const searching = search.isFetching;
  let results: ReactNode = null;
  if (submitted !== null) {
    if (searching && !search.data) {
      results = (
        <Group justify="center" py="md" role="status" aria-label="Searching">
          <Loader size="sm" />
        </Group>
      );
    } else if (search.isError) {
      results = <ErrorAlert message={ASSIGN_TEXTS.searchFailed} onRetry={() => void search.refetch()} />;
    } else if (customers.length === 0) {
      results = (
        <Text size="sm" c="dimmed" ta="center" py="sm">
          {ASSIGN_TEXTS.noResults}
        </Text>
      );
    } else {
      results = (
        <Radio.Group value={selected} onChange={setSelected} label={`Customers (${customers.length})`}>
          <ScrollArea.Autosize mah={260} type="auto" mt="xs">
            <Stack gap={6}>
              {customers.map((c) => (
                <Radio.Card key={c.customer_id} value={String(c.customer_id)} radius="md" p="sm" aria-label={c.customer_name}>
                  <Group wrap="nowrap" gap="sm">
                    <Radio.Indicator />
                    <div>
                      <Text size="sm" fw={600}>
                        {c.customer_name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {[c.phone_contact, c.id_number ? `ID ${c.id_number}` : null, c.county].filter(Boolean).join(' · ')}
                      </Text>
                    </div>
                  </Group>
                </Radio.Card>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Radio.Group>
      );
    }
  }

  return (
    <Stack gap="md">
      <Paper withBorder p="sm" radius="md" bg="var(--kidogo-section-bg)">
        <Text size="sm">
          <Text span fw={600}>
            {product.serial_number}
          </Text>{' '}
          · {product.product_name}
          {product.is_assigned && product.customer_name ? ` · currently assigned to ${product.customer_name}` : ''}
        </Text>
      </Paper>
      <Group align="flex-end" gap="sm" wrap="nowrap">
        <TextInput
          label="Search customers"
          placeholder="Customer name"
          value={term}
          onChange={(e) => setTerm(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              runSearch();
            }
          }}
          style={{ flex: 1 }}
          data-autofocus
        />
        <Button variant="light" leftSection={<IconSearch size={16} />} onClick={runSearch} loading={searching}>
          Search
        </Button>
      </Group>
      {results}
      {selected !== null ? (
        <CreditCheckPanel query={credit.query} reason={overrideReason} onReasonChange={setOverrideReason} disabled={assign.isPending} />
      ) : null}
      {notice ? (
        <Alert color="yellow" variant="light" icon={<IconInfoCircle size={18} />} role="alert">
          {notice}
        </Alert>
      ) : null}
      {assign.isError ? <ErrorAlert title={ASSIGN_TEXTS.assignFailed} message={errorMessage(assign.error, ASSIGN_TEXTS.assignFailed)} /> : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={assign.isPending}>
          Cancel
        </Button>
        <Button onClick={submit} loading={assign.isPending} disabled={selected !== null && credit.decision.blocked}>
          Assign Product
        </Button>
      </Group>
    </Stack>
  );
}
