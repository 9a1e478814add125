import { Button, Menu, type ButtonProps } from '@mantine/core';
import { IconChevronDown, IconSignature } from '@tabler/icons-react';
import type { StatementLanguage } from '@kidogo/contracts';
import { useState } from 'react';
import { downloadFile, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';

export const AGREEMENT_FAILED = 'Failed to download the agreement';

/** GET /devices/{serial}/agreement: the device's PAYG agreement (PDF), in the customer's language unless one is given. */
export const downloadAgreement = (serialNumber: string, language: StatementLanguage | null = null) =>
  downloadFile(`/devices/${encodeURIComponent(serialNumber)}/agreement`, `agreement-${serialNumber}.pdf`, {
    query: { language: language ?? undefined },
    headers: { Accept: 'application/pdf' },
  });

const CHOICES: { label: string; language: StatementLanguage | null }[] = [
  { label: "In the customer's language", language: null },
  { label: 'In English', language: 'en' },
  { label: 'In Kiswahili', language: 'sw' },
  { label: 'In French', language: 'fr' },
];

/**
 * Agreement: the PAYG agreement of a device and its customer, a PDF to print
 * for the customer to sign at the sale; the signed copy is then kept with
 * the customer's documents.
 */
export function AgreementMenu({ serialNumber, ...buttonProps }: { serialNumber: string } & ButtonProps) {
  const [busy, setBusy] = useState(false);
  const download = async (language: StatementLanguage | null) => {
    setBusy(true);
    try {
      toast.success(`Downloaded ${await downloadAgreement(serialNumber, language)}`);
    } catch (error) {
      toast.error(errorMessage(error, AGREEMENT_FAILED), { title: AGREEMENT_FAILED });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconSignature size={16} />}
          rightSection={<IconChevronDown size={14} />}
          loading={busy}
          aria-label={`Agreement for ${serialNumber}`}
          {...buttonProps}
        >
          Agreement
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>PAYG agreement to print and sign (PDF)</Menu.Label>
        {CHOICES.map(({ label, language }) => (
          <Menu.Item key={label} onClick={() => void download(language)}>
            {label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
