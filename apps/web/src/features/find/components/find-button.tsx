import { ActionIcon, Button, Kbd } from '@mantine/core';
import { useDisclosure, useHotkeys, useOs } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { FindModal } from './find-modal';

/**
 * The header's way into Find: a search-looking button with its shortcut on
 * desktop, an icon on phones. Ctrl+K (⌘K on a Mac) opens it from anywhere,
 * even from a form's field; "/" too, unless the user is typing.
 */
export function FindButton() {
  const [opened, { open, close }] = useDisclosure(false);
  const mac = useOs() === 'macos';
  useHotkeys([['mod+K', open]], [], true);
  useHotkeys([['/', open]]);

  return (
    <>
      <Button
        variant="default"
        visibleFrom="sm"
        w={200}
        mr="xs"
        justify="space-between"
        fw={400}
        c="dimmed"
        leftSection={<IconSearch size={16} stroke={1.6} />}
        rightSection={
          <Kbd size="xs" aria-hidden>
            {mac ? '⌘ K' : 'Ctrl K'}
          </Kbd>
        }
        aria-label="Find"
        aria-keyshortcuts={mac ? 'Meta+K' : 'Control+K'}
        aria-haspopup="dialog"
        onClick={open}
        styles={{ label: { flex: 1 } }}
      >
        Find
      </Button>
      <ActionIcon variant="subtle" color="gray" size="lg" hiddenFrom="sm" aria-label="Find" aria-haspopup="dialog" onClick={open}>
        <IconSearch size={20} stroke={1.6} />
      </ActionIcon>
      <FindModal opened={opened} onClose={close} />
    </>
  );
}
