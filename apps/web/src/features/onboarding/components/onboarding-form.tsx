import { Alert, Badge, Button, Card, CloseButton, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle, IconCircleCheck, IconDownload, IconInfoCircle, IconRotate, IconSearch, IconX } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { formatMoney } from '@/components/ui/money';
import { errorMessage } from '@/lib/api-client';
import { useCompleteOnboarding } from '../api/complete-onboarding';
import { ONBOARDING_TEXTS, SUCCESS_RESET_MS } from '../api/constants';
import { useTemplateOptions } from '../api/get-templates';
import { useCustomerOptions } from '../api/search-customers';
import { useItemOptions } from '../api/search-items';
import type { CustomerOption, ItemOption, TemplateOption } from '../api/types';
import { OptionList, OptionText } from './option-list';
import { StepCard } from './step-card';
import { CreditCheckPanel, useCreditDecision } from '@/features/credit-check/components/credit-check-panel';

/** Scrolled to, the outcome stops below the fixed header rather than under it. */
const OUTCOME_STYLE = { scrollMarginTop: 'calc(var(--app-shell-header-height, 60px) + var(--mantine-spacing-md))' } as const;

type Notice =
  | { kind: 'success' }
  | { kind: 'partial' }
  | { kind: 'error'; detail: string };

/** A search box that resets its list to page 1 when the text settles (500 ms). */
function useSearch() {
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue(text.trim(), 500);
  const [page, setPage] = useState(1);
  const [seen, setSeen] = useState(debounced);
  if (seen !== debounced) {
    setSeen(debounced);
    setPage(1);
  }
  const reset = () => {
    setText('');
    setPage(1);
  };
  return { text, setText, term: debounced, page, setPage, reset };
}

const customerDetail = (c: CustomerOption) =>
  [c.phone_contact, c.id_number ? `ID ${c.id_number}` : null, c.county].filter(Boolean).join(' · ');
/** The product, its maker and, when it has one, the stock location it is kept at (which shop hands it over). */
const itemDetail = (i: ItemOption) =>
  [i.product_name, i.manufacturer || i.product_oem, i.location_name ? `at ${i.location_name}` : null].filter(Boolean).join(' · ');
const templateDetail = (t: TemplateOption) => {
  const currency = t.currency || 'KES';
  return `${formatMoney(t.daily_price, currency)} / day · activation ${formatMoney(t.activation_price, currency)} · ${t.grace_period_days} grace days`;
};

/**
 * Customer Onboarding: pick a customer, a device and (optionally) a payment
 * template, then assign them in one go.
 */
export function OnboardingForm() {
  const customers = useSearch();
  const items = useSearch();
  const templates = useSearch();
  const [templatesRequested, setTemplatesRequested] = useState(false);
  const [customer, setChosenCustomer] = useState<CustomerOption | null>(null);
  /** An owner's or admin's reason to give the device against the follow-on sales rule: the chosen customer's only. */
  const [overrideReason, setOverrideReason] = useState('');
  const setCustomer = (c: CustomerOption | null) => {
    setChosenCustomer(c);
    setOverrideReason('');
  };
  const [item, setItem] = useState<ItemOption | null>(null);
  const [template, setTemplate] = useState<TemplateOption | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  /** True from a successful onboarding until the form starts over. */
  const [resetPending, setResetPending] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const successTitleId = useId();

  const customerList = useCustomerOptions(customers.term, customers.page);
  const itemList = useItemOptions(items.term, items.page);
  const templateList = useTemplateOptions(templates.term, templates.page, templatesRequested);
  const complete = useCompleteOnboarding();
  const credit = useCreditDecision(customer?.customer_id ?? null, overrideReason);

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  // The outcome is drawn above the steps, out of view on a phone where the
  // user has just tapped Complete Onboarding at the bottom: bring it there.
  const outcome = notice?.kind === 'success' || notice?.kind === 'partial' ? notice.kind : null;
  useEffect(() => {
    if (outcome) outcomeRef.current?.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
  }, [outcome]);

  const resetSelections = () => {
    customers.reset();
    items.reset();
    templates.reset();
    setTemplatesRequested(false);
    setCustomer(null);
    setItem(null);
    setTemplate(null);
    complete.reset();
  };

  const resetAll = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    resetSelections();
    setResetPending(false);
    setNotice(null);
  };

  const busy = complete.isPending || resetPending;
  const missing = !customer ? ONBOARDING_TEXTS.noCustomer : !item ? ONBOARDING_TEXTS.noItem : null;

  const submit = () => {
    if (busy) return;
    if (missing || !customer || !item) {
      setNotice({ kind: 'error', detail: missing ?? ONBOARDING_TEXTS.noCustomer });
      return;
    }
    setNotice(null);
    complete.mutate(
      {
        customer_id: customer.customer_id,
        item_serial_number: item.serial_number,
        ...(template ? { template_id: template.template_id } : {}),
        ...(credit.decision.overrideReason ? { override_reason: credit.decision.overrideReason } : {}),
      },
      {
        onSuccess: (outcome) => {
          setNotice(outcome.kind === 'complete' ? { kind: 'success' } : { kind: 'partial' });
          setResetPending(true);
          // Spec §4: the message shows for 3 seconds, then everything starts over.
          timer.current = setTimeout(() => {
            timer.current = null;
            resetSelections();
            setResetPending(false);
            setNotice((n) => (n?.kind === 'success' ? null : n));
          }, SUCCESS_RESET_MS);
        },
        onError: (error) => setNotice({ kind: 'error', detail: errorMessage(error, ONBOARDING_TEXTS.failed) }),
      },
    );
  };

  const templateError = templateList.isError ? ONBOARDING_TEXTS.templatesFailed : null;

  return (
    <Stack gap="lg">
      {notice?.kind === 'success' ? (
        <Alert
          ref={outcomeRef}
          color="green"
          variant="light"
          icon={<IconCircleCheck size={18} />}
          role="status"
          aria-labelledby={successTitleId}
          title={<span id={successTitleId}>{ONBOARDING_TEXTS.success}</span>}
          style={OUTCOME_STYLE}
        >
          {customer && item
            ? `${item.serial_number} is now assigned to ${customer.customer_name}${template ? ` on ${template.template_name}` : ''}.`
            : null}
        </Alert>
      ) : null}
      {notice?.kind === 'partial' ? (
        <Alert
          ref={outcomeRef}
          color="yellow"
          variant="light"
          style={OUTCOME_STYLE}
          icon={<IconAlertTriangle size={18} />}
          role="alert"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setNotice(null)}
        >
          {ONBOARDING_TEXTS.partial}
        </Alert>
      ) : null}

      <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="lg">
        <StepCard step={1} title="Select Customer" description="Search customers by name." chosen={customer?.customer_name ?? null}>
          <TextInput
            aria-label="Search customers by name"
            placeholder="Search customers by name..."
            leftSection={<IconSearch size={16} />}
            value={customers.text}
            onChange={(e) => customers.setText(e.currentTarget.value)}
          />
          <OptionList
            label="Customers"
            options={customerList.data?.data}
            total={customerList.data?.total ?? 0}
            page={customers.page}
            onPageChange={customers.setPage}
            getKey={(c) => String(c.customer_id)}
            getLabel={(c) => c.customer_name}
            renderOption={(c) => <OptionText title={c.customer_name} detail={customerDetail(c)} />}
            selectedKey={customer ? String(customer.customer_id) : null}
            onSelect={setCustomer}
            loading={customerList.isPending}
            error={customerList.isError ? errorMessage(customerList.error, 'Failed to load customers') : null}
            onRetry={() => void customerList.refetch()}
            emptyText={customers.term ? 'No customers found matching your search' : 'No customers found'}
            itemLabel="customers"
          />
        </StepCard>

        <StepCard
          step={2}
          title="Select Item"
          description="Search available devices by serial number, product name or manufacturer."
          chosen={item?.serial_number ?? null}
        >
          <TextInput
            aria-label="Search items"
            placeholder="Serial, product or manufacturer..."
            leftSection={<IconSearch size={16} />}
            value={items.text}
            onChange={(e) => items.setText(e.currentTarget.value)}
          />
          {resetPending && item ? (
            // The device just assigned has left the list of available ones: an
            // empty list here would say there is nothing to assign.
            <Group gap="xs" wrap="nowrap" align="flex-start" py="sm">
              <IconCircleCheck size={18} color="var(--mantine-color-green-6)" aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
              <Text size="sm">{`${item.serial_number} has been assigned. The form starts over in a moment.`}</Text>
            </Group>
          ) : (
            <OptionList
              label="Items"
              options={itemList.data?.data}
              total={itemList.data?.total ?? 0}
              page={items.page}
              onPageChange={items.setPage}
              getKey={(i) => i.serial_number}
              getLabel={(i) => i.serial_number}
              renderOption={(i) => <OptionText title={<Text span ff="monospace" fw={600} size="sm">{i.serial_number}</Text>} detail={itemDetail(i)} />}
              selectedKey={item?.serial_number ?? null}
              onSelect={setItem}
              loading={itemList.isPending}
              error={itemList.isError ? errorMessage(itemList.error, 'Failed to load items') : null}
              onRetry={() => void itemList.refetch()}
              emptyText={items.term ? 'No available items match your search' : 'No available items'}
              itemLabel="items"
            />
          )}
        </StepCard>

        <StepCard
          step={3}
          title="Select Payment Template"
          description="Optional: put the customer on a payment plan. A customer already on another plan keeps it for their other devices, and this device gets the template as its own."
          chosen={template?.template_name ?? null}
        >
          <Group gap="xs" wrap="nowrap">
            <TextInput
              aria-label="Search payment templates"
              placeholder="Template name..."
              leftSection={<IconSearch size={16} />}
              value={templates.text}
              onChange={(e) => {
                templates.setText(e.currentTarget.value);
                setTemplatesRequested(true);
              }}
              style={{ flex: 1 }}
            />
            <Button
              variant="default"
              leftSection={<IconX size={14} />}
              onClick={() => {
                setTemplate(null);
                templates.reset();
              }}
              disabled={!template && !templates.text}
            >
              Clear
            </Button>
          </Group>
          <Button
            variant="light"
            leftSection={<IconDownload size={16} />}
            onClick={() => (templatesRequested ? void templateList.refetch() : setTemplatesRequested(true))}
            loading={templateList.isFetching}
          >
            Load Payment Templates
          </Button>
          {templatesRequested ? (
            templateError ? (
              <ErrorAlert message={templateError} onRetry={() => void templateList.refetch()} retrying={templateList.isFetching} />
            ) : (
              <OptionList
                label="Payment templates"
                options={templateList.data?.data}
                total={templateList.data?.total ?? 0}
                page={templates.page}
                onPageChange={templates.setPage}
                getKey={(t) => String(t.template_id)}
                getLabel={(t) => t.template_name}
                renderOption={(t) => <OptionText title={t.template_name} detail={templateDetail(t)} />}
                selectedKey={template ? String(template.template_id) : null}
                onSelect={setTemplate}
                loading={templateList.isPending}
                error={null}
                emptyText={templates.term ? 'No templates match your search' : 'No payment templates found'}
                itemLabel="templates"
              />
            )
          ) : (
            <Text size="sm" c="dimmed">
              No template chosen. Load the payment templates to pick one.
            </Text>
          )}
        </StepCard>
      </SimpleGrid>

      <Card padding="md" radius="md">
        <Group justify="space-between" gap="md" wrap="wrap">
          <Group gap="xs" wrap="wrap">
            <Text size="sm" fw={600}>
              Summary:
            </Text>
            <Chosen label="Customer" value={customer?.customer_name} onClear={() => setCustomer(null)} disabled={busy} />
            <Chosen label="Item" value={item?.serial_number} onClear={() => setItem(null)} disabled={busy} />
            <Chosen label="Template" value={template?.template_name ?? 'none'} onClear={template ? () => setTemplate(null) : undefined} disabled={busy} />
          </Group>
          <Group gap="sm" ml="auto">
            <Button variant="default" leftSection={<IconRotate size={16} />} onClick={resetAll} disabled={complete.isPending}>
              Reset
            </Button>
            <Button onClick={submit} disabled={!customer || !item || busy || credit.decision.blocked} loading={complete.isPending}>
              {complete.isPending ? 'Processing...' : 'Complete Onboarding'}
            </Button>
          </Group>
        </Group>
        {customer && !resetPending ? (
          <Stack mt="sm">
            <CreditCheckPanel query={credit.query} reason={overrideReason} onReasonChange={setOverrideReason} disabled={complete.isPending} />
          </Stack>
        ) : null}
        {missing && !notice ? (
          <Group gap={6} mt="sm" c="dimmed">
            <IconInfoCircle size={16} aria-hidden />
            <Text size="sm">{missing}</Text>
          </Group>
        ) : null}
        {notice?.kind === 'error' ? (
          <Stack mt="sm">
            <ErrorAlert
              title={notice.detail === ONBOARDING_TEXTS.noCustomer || notice.detail === ONBOARDING_TEXTS.noItem ? 'Error' : ONBOARDING_TEXTS.failed}
              message={notice.detail}
            />
          </Stack>
        ) : null}
      </Card>
    </Stack>
  );
}

function Chosen({ label, value, onClear, disabled }: { label: string; value: string | undefined; onClear?: () => void; disabled: boolean }) {
  return (
    <Badge
      size="lg"
      radius="sm"
      variant={value && value !== 'none' ? 'light' : 'outline'}
      color={value && value !== 'none' ? 'kidogo' : 'gray'}
      tt="none"
      rightSection={
        value && onClear && !disabled ? (
          <CloseButton size="xs" aria-label={`Clear ${label.toLowerCase()}`} onClick={onClear} variant="transparent" />
        ) : null
      }
    >
      {label}: {value ?? '—'}
    </Badge>
  );
}
