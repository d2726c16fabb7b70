import { Avatar, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconKey, IconLogout, IconMailbox, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SessionContext } from '@pathwell/contracts/session';

function initials(firstName: string, lastName: string) {
  return `${firstName.charAt(0)}${lastName.charAt(0)}`.toUpperCase() || '?';
}

export function UserMenu({ session, compact, onSignOut }: { session: SessionContext; compact: boolean; onSignOut: () => void }) {
  const { t } = useTranslation('shell');
  const { user } = session;
  const fullName = `${user.firstName} ${user.lastName}`.trim();
  const showOutbox = user.role === 'SystemManager' && session.demoMode;

  return (
    <Menu position="bottom-end" width={220} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton
          className="user-menu-button"
          // The visible name and role start the button's name (label in name); compact shows only the avatar.
          aria-label={compact ? t('userMenu.label', { name: fullName }) : undefined}
          data-testid="user-menu"
        >
          <Group gap="xs" wrap="nowrap">
            <Avatar src={user.profileImage} alt="" radius="xl" size={34} color="teal">
              {initials(user.firstName, user.lastName)}
            </Avatar>
            {compact ? null : (
              <div className="user-menu-name">
                <Text size="sm" fw={600} lh={1.2} truncate>
                  {fullName}
                </Text>
                <Text size="xs" c="dimmed" lh={1.2}>
                  {t(`roles.${user.role}`)}
                </Text>
                <VisuallyHidden>{t('userMenu.hint')}</VisuallyHidden>
              </div>
            )}
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.email}</Menu.Label>
        <Menu.Item
          component={Link}
          to="/my-account"
          leftSection={<IconUserCircle size={16} aria-hidden />}
          data-testid="user-menu-my-account"
        >
          {t('userMenu.myAccount')}
        </Menu.Item>
        <Menu.Item
          component={Link}
          to="/change-password"
          leftSection={<IconKey size={16} aria-hidden />}
          data-testid="user-menu-change-password"
        >
          {t('userMenu.changePassword')}
        </Menu.Item>
        {showOutbox ? (
          <Menu.Item
            component={Link}
            to="/outbox"
            leftSection={<IconMailbox size={16} aria-hidden />}
            data-testid="user-menu-outbox"
          >
            {t('userMenu.outbox')}
          </Menu.Item>
        ) : null}
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} aria-hidden />} onClick={onSignOut} data-testid="logout">
          {t('userMenu.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
