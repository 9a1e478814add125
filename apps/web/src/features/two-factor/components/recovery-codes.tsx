import { Alert, Box, Button, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { saveBlob } from '@/lib/api-client';

export const RECOVERY_CODES_FILE = 'kidogo-recovery-codes.txt';

/** The text file of the codes: what they are for, whose they are, and one code per line. */
export function recoveryCodesText(codes: readonly string[], account: string | undefined, made = new Date()): string {
  return [
    `Kidogo recovery codes${account ? ` for ${account}` : ''}`,
    `Made ${made.toISOString().slice(0, 10)}. Each code signs you in once, in place of a code from your authenticator app.`,
    'A new set replaces these: then these stop working.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/**
 * Recovery codes, shown this once: in a grid to read or write down, with Copy
 * all and Download. They sign the user in when the phone is lost.
 */
export function RecoveryCodes({ codes, account }: { codes: readonly string[]; account: string | undefined }) {
  const download = () => saveBlob(new Blob([recoveryCodesText(codes, account)], { type: 'text/plain;charset=utf-8' }), RECOVERY_CODES_FILE);
  return (
    <Stack gap="md">
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title="Save your recovery codes now">
        They are shown only this once. If you lose your phone, each code signs you in once instead of a code from the app. Keep
        them somewhere safe, apart from your phone.
      </Alert>
      <Box
        component="ul"
        aria-label="Recovery codes"
        m={0}
        p="md"
        bg="var(--mantine-color-default-hover)"
        style={{ listStyle: 'none', borderRadius: 'var(--mantine-radius-md)', display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: '6px 12px' }}
      >
        {codes.map((code) => (
          <Text key={code} component="li" ff="monospace" fz="md" ta="center" style={{ letterSpacing: '0.04em', whiteSpace: 'nowrap' }}>
            {code}
          </Text>
        ))}
      </Box>
      <Group gap="sm" grow preventGrowOverflow={false}>
        <CopyButton value={codes.join('\n')} timeout={1500}>
          {({ copied, copy }) => (
            <Button variant="default" color={copied ? 'teal' : undefined} leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
              {copied ? 'Copied' : 'Copy All'}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={download}>
          Download
        </Button>
      </Group>
    </Stack>
  );
}
