import { FIND_MAX_LENGTH, FIND_MIN_LENGTH } from '@kidogo/contracts';
import { Box, Center, Divider, Group, Kbd, Loader, Modal, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorMessage } from '@/lib/api-client';
import { isSearchable, useFind } from '../api/find';
import { FindResults, hitsOf, type FindHit } from './find-results';

/** How long typing pauses before the term is looked up. */
export const FIND_DEBOUNCE_MS = 250;
export const FIND_PLACEHOLDER = 'Name, phone, ID number, serial or transaction code';
export const FIND_HINT = `Type at least ${FIND_MIN_LENGTH} characters`;

function Note({ children, color = 'dimmed' }: { children: ReactNode; color?: string }) {
  return (
    <Text size="sm" c={color} ta="center" py="lg" px="md">
      {children}
    </Text>
  );
}

function KeyHints() {
  return (
    <Group gap="md" px="md" py={8} visibleFrom="sm" c="dimmed" fz="xs" aria-hidden>
      <span>
        <Kbd size="xs">↑</Kbd> <Kbd size="xs">↓</Kbd> to move
      </span>
      <span>
        <Kbd size="xs">Enter</Kbd> to open
      </span>
      <span>
        <Kbd size="xs">Esc</Kbd> to close
      </span>
    </Group>
  );
}

/** The search box and what it found; each opening of the modal starts a new one, with an empty box. */
function FindPanel({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const baseId = useId();
  const listId = `${baseId}-results`;
  const optionId = (index: number) => `${baseId}-option-${index}`;
  const [value, setValue] = useState('');
  const term = value.trim();
  const [debounced] = useDebouncedValue(term, FIND_DEBOUNCE_MS);
  const found = useFind(debounced);

  const searchable = isSearchable(term);
  const hits: FindHit[] = searchable && found.data ? hitsOf(found.data) : [];
  // Settled: the rows answer what is in the box now, not the term before it.
  const settled = term === debounced && !found.isPlaceholderData;

  // A new list starts at its first row.
  const [active, setActive] = useState(0);
  const signature = hits.map((h) => h.key).join('|');
  const [shown, setShown] = useState(signature);
  if (signature !== shown) {
    setShown(signature);
    setActive(0);
  }
  const activeIndex = Math.min(active, hits.length - 1);
  const current = activeIndex >= 0 ? hits[activeIndex] : undefined;
  const activeId = current ? optionId(activeIndex) : undefined;

  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);

  const open = (hit: FindHit) => {
    navigate(hit.href);
    onClose();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!hits.length) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + hits.length) % hits.length);
    } else if (e.key === 'Enter' && !e.nativeEvent.isComposing && current) {
      e.preventDefault();
      open(current);
    }
  };

  let body: ReactNode;
  if (!searchable) body = <Note>{FIND_HINT}</Note>;
  else if (found.isError && settled) body = <Note color="red">{errorMessage(found.error, 'Find failed')}</Note>;
  else if (hits.length) {
    body = <FindResults id={listId} hits={hits} active={activeIndex} optionId={optionId} onActivate={setActive} onOpen={onClose} />;
  } else if (settled && found.data) {
    body = <Note>Nothing found for “{debounced}”</Note>;
  } else {
    body = (
      <Center py="lg">
        <Loader size="sm" aria-label="Searching" />
      </Center>
    );
  }

  return (
    <>
      <TextInput
        data-autofocus
        size="lg"
        variant="unstyled"
        px="md"
        placeholder={FIND_PLACEHOLDER}
        aria-label="Find a customer, device or payment"
        maxLength={FIND_MAX_LENGTH}
        leftSection={<IconSearch size={20} stroke={1.6} />}
        rightSection={found.isFetching && hits.length ? <Loader size="xs" aria-label="Searching" /> : null}
        value={value}
        onChange={(e) => setValue(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={hits.length > 0}
        aria-controls={hits.length ? listId : undefined}
        aria-activedescendant={activeId}
        autoComplete="off"
        spellCheck={false}
      />
      <Divider />
      {/* Native scrolling: a ScrollArea's content grows to its widest row, and the rows should truncate instead. */}
      <Box mah="min(60vh, 540px)" p="xs" style={{ overflowY: 'auto', overscrollBehavior: 'contain' }}>
        {body}
      </Box>
      <Divider visibleFrom="sm" />
      <KeyHints />
    </>
  );
}

/** Find: one box for a name, phone number, ID number, serial or transaction code, and the pages they lead to. */
export function FindModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  // Each opening is a new search, even one that catches the last closing before its transition has ended.
  const [openings, setOpenings] = useState(0);
  const [wasOpened, setWasOpened] = useState(opened);
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (opened) setOpenings((n) => n + 1);
  }
  return (
    <Modal.Root opened={opened} onClose={onClose} size="lg" yOffset="10vh">
      <Modal.Overlay backgroundOpacity={0.45} blur={2} />
      <Modal.Content aria-label="Find" radius="lg">
        <Modal.Body p={0}>
          <FindPanel key={openings} onClose={onClose} />
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
