import { Alert, Button, Card, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDownload, IconEraser, IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { DateText } from '@/components/ui/date-text';
import { useCustomer } from '@/features/customers/api/get-customer';
import { useDownloadPersonalData } from '../api/download-personal-data';
import { EraseCustomerModal, type ErasableCustomer } from './erase-customer-modal';

export interface PersonalDataCustomer extends ErasableCustomer {
  status: string;
}

export const isErased = (customer: { status: string }) => customer.status === 'erased';

/**
 * The customer's rights over their personal data, for owners and admins (the
 * page decides who sees it): a copy of everything held about them, and its
 * erasure once they owe nothing.
 */
export function PersonalDataCard({ customer }: { customer: PersonalDataCustomer }) {
  const download = useDownloadPersonalData();
  const [erasing, setErasing] = useState(false);
  const erased = isErased(customer);

  return (
    <Card padding="lg" radius="md" mt="lg" role="region" aria-label="Personal Data">
      <Group gap="sm" mb="md" wrap="nowrap">
        <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
          <IconShieldLock size={22} />
        </ThemeIcon>
        <Title order={4}>Personal Data</Title>
      </Group>
      {erased ? (
        <ErasedNotice customerId={customer.customer_id} />
      ) : (
        <Text size="sm" c="dimmed">
          Under data-protection law a customer may ask for a copy of everything held about them, and, once they owe nothing, for it to be
          erased. Payments and codes stay in the books, without their name or phone. The copy is one ZIP file: the data, and the files of
          their documents.
        </Text>
      )}
      <Group gap="sm" mt="md" wrap="wrap">
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          loading={download.isPending}
          onClick={() => download.mutate(customer.customer_id)}
        >
          Download Personal Data
        </Button>
        {erased ? null : (
          <Button color="red" leftSection={<IconEraser size={16} />} onClick={() => setErasing(true)}>
            Erase Personal Data
          </Button>
        )}
      </Group>
      <EraseCustomerModal customer={erasing ? customer : null} onClose={() => setErasing(false)} />
    </Card>
  );
}

/** When it was erased: the payment details do not say when the customer last changed, their record does. */
function ErasedNotice({ customerId }: { customerId: number }) {
  const record = useCustomer(customerId);
  return (
    <Alert color="gray" variant="light" title="Personal data erased" icon={<IconEraser size={18} />}>
      This customer&apos;s personal data was erased
      {record.data ? (
        <>
          {' on '}
          <DateText value={record.data.updated_at} />
        </>
      ) : null}
      . Their payments, codes and devices stay in the books without it.
    </Alert>
  );
}
