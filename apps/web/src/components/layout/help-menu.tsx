import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { IconBook, IconHelp, IconLifebuoy, IconMail } from '@tabler/icons-react';
import { links } from '@/config/links';

export function HelpMenu() {
  return (
    <Menu position="bottom-end" width={220} shadow="md" withinPortal>
      <Menu.Target>
        <Tooltip label="Help" withArrow>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Help">
            <IconHelp size={20} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Help</Menu.Label>
        <Menu.Item
          component="a"
          href={links.documentation}
          target="_blank"
          rel="noopener noreferrer"
          leftSection={<IconBook size={16} />}
        >
          Documentation
        </Menu.Item>
        <Menu.Item
          component="a"
          href={links.supportSite}
          target="_blank"
          rel="noopener noreferrer"
          leftSection={<IconLifebuoy size={16} />}
        >
          Support Site
        </Menu.Item>
        <Menu.Item component="a" href={`mailto:${links.contactEmail}`} leftSection={<IconMail size={16} />}>
          Contact us
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
