import { Badge, Button, Code, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPhoneCall, IconRefresh, IconSend } from '@tabler/icons-react';
import { USSD_OUTCOME_LABELS, ZUssdTryInputSchema, type UssdTryReply } from '@kidogo/contracts';
import { useState, type FormEvent } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { apiFieldErrors } from '@/lib/api-client';
import { labelledFieldErrors, refusalBeside, schemaErrors } from '@/lib/validation';
import { useTryUssdMenu } from '../api/try-ussd-menu';

export const TRY_FAILED = 'Failed to try the menu';

/** The fields' labels: client-side and server messages read "Phone Number is required". */
const LABELS = { phone_number: 'Phone Number', text: 'Answer' };
type Field = keyof typeof LABELS;

/**
 * Try the Menu: the menu as a customer's phone sees it, a screen at a time. The answers are kept here and sent joined
 * by `*` every step, as the gateway does; the API works the screen out from them and does nothing of what it says.
 */
export function UssdTryMenu() {
  const tryMenu = useTryUssdMenu();
  const [phone, setPhone] = useState('');
  const [answers, setAnswers] = useState<string[]>([]);
  const [answer, setAnswer] = useState('');
  const [reply, setReply] = useState<UssdTryReply | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const waiting = reply !== null && !reply.end;
  // Which button the call in flight is for: the first screen's (Dial), or an answer's (Send).
  const dialling = tryMenu.isPending && tryMenu.variables?.text === '';
  const sending = tryMenu.isPending && !dialling;

  const clear = () => {
    tryMenu.reset();
    setAnswers([]);
    setAnswer('');
    setReply(null);
    setErrors({});
    setFailure(null);
  };

  /** Asks for the screen after `next` (every answer so far); it becomes the session's only once the API has answered. */
  const ask = (next: string[]) => {
    const input = { phone_number: phone.trim(), text: next.join('*') };
    const found = schemaErrors(ZUssdTryInputSchema, input, LABELS);
    setErrors(found);
    setFailure(null);
    if (Object.values(found).some(Boolean) || tryMenu.isPending) return;
    tryMenu.mutate(input, {
      onSuccess: (screen) => {
        setReply(screen);
        setAnswers(next);
        setAnswer('');
      },
      onError: (error) => {
        // A 400 names its field (the phone, or the answers): shown under it; anything else in the red box.
        const fields = apiFieldErrors(error);
        const shown = labelledFieldErrors(fields, LABELS);
        setErrors(shown);
        setFailure(refusalBeside(error, fields, shown, TRY_FAILED));
      },
    });
  };

  const dial = (event: FormEvent) => {
    event.preventDefault();
    ask([]);
  };

  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!waiting) return;
    const typed = answer.trim();
    if (!typed) {
      setErrors({ text: `${LABELS.text} is required` });
      return;
    }
    ask([...answers, typed]);
  };

  return (
    <Stack gap="sm">
      <div>
        <Title order={5}>Try the Menu</Title>
        <Text size="sm" c="dimmed">
          See what a customer sees when they dial from their phone. Nothing is sent, paid or reported while you try.
        </Text>
      </div>
      <form onSubmit={dial} noValidate aria-label="Dial the menu">
        <TextInput
          label={LABELS.phone_number}
          description="A customer's phone, as the gateway sends it"
          placeholder="e.g. +254712345678"
          inputMode="tel"
          autoComplete="off"
          value={phone}
          onChange={(e) => {
            setPhone(e.currentTarget.value);
            // The answers were to this phone's menu: another phone starts again.
            if (reply || answers.length) clear();
            else setErrors((x) => ({ ...x, phone_number: undefined }));
          }}
          error={errors.phone_number}
          // Dial sits in the input's end, as on a phone: it stays level with the input whatever is said under it.
          rightSectionWidth={88}
          rightSectionPointerEvents="all"
          rightSection={
            <Button type="submit" size="compact-sm" leftSection={<IconPhoneCall size={14} />} loading={dialling}>
              Dial
            </Button>
          }
        />
      </form>
      {failure ? <ErrorAlert title={TRY_FAILED} message={failure} /> : null}
      <Paper withBorder p="sm" radius="md" maw={360} bg="var(--mantine-color-default-hover)">
        <Stack gap="xs">
          <Text
            size="sm"
            ff="monospace"
            data-testid="ussd-screen"
            role="status"
            aria-label="Phone screen"
            c={reply ? undefined : 'dimmed'}
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', minHeight: '6em' }}
          >
            {reply ? reply.screen : 'Enter a phone number and Dial to see the first screen.'}
          </Text>
          {reply?.end ? (
            <Group gap="xs">
              <Badge color="gray" variant="light" radius="sm" miw="max-content">
                Session ended
              </Badge>
              <Text size="xs" c="dimmed">
                {USSD_OUTCOME_LABELS[reply.outcome]}
              </Text>
            </Group>
          ) : null}
          {reply?.would ? (
            <Text size="xs" c="dimmed" data-testid="ussd-would">
              Not done in a try: {reply.would}
            </Text>
          ) : null}
        </Stack>
      </Paper>
      {answers.length ? (
        <Text size="xs" c="dimmed">
          Answers so far: <Code data-testid="ussd-answers">{answers.join('*')}</Code>
        </Text>
      ) : null}
      <form onSubmit={send} noValidate aria-label="Answer the menu">
        <TextInput
          label={LABELS.text}
          placeholder={waiting ? 'e.g. 1' : undefined}
          autoComplete="off"
          value={answer}
          onChange={(e) => {
            setAnswer(e.currentTarget.value);
            setErrors((x) => ({ ...x, text: undefined }));
          }}
          error={errors.text}
          disabled={!waiting}
          rightSectionWidth={88}
          rightSectionPointerEvents="all"
          rightSection={
            <Button type="submit" size="compact-sm" leftSection={<IconSend size={14} />} disabled={!waiting} loading={sending}>
              Send
            </Button>
          }
        />
      </form>
      <Group>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconRefresh size={14} />}
          onClick={clear}
          disabled={!reply && !failure && !Object.values(errors).some(Boolean)}
        >
          Start Over
        </Button>
      </Group>
    </Stack>
  );
}
