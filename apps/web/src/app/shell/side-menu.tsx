import { NavLink, ScrollArea, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { MenuItem } from '@pathwell/contracts/menu';
import { menuIcon } from './menu-icons';

/** `menu.patients` → `patients`: keys of the menu namespace carry no prefix. */
export function menuLabelKey(titleKey: string): string {
  return titleKey.replace(/^menu\./, '');
}

function isUnder(pathname: string, url: string | undefined): boolean {
  if (!url) return false;
  const path = pathname.toLowerCase();
  const target = url.toLowerCase();
  return path === target || path.startsWith(`${target}/`);
}

function containsPath(item: MenuItem, pathname: string): boolean {
  return isUnder(pathname, item.url) || (item.children ?? []).some((child) => containsPath(child, pathname));
}

function MenuEntry({ item, onNavigate }: { item: MenuItem; onNavigate?: () => void }) {
  const { t } = useTranslation('menu');
  const { pathname } = useLocation();
  const holdsCurrentPage = containsPath(item, pathname);
  const [opened, setOpened] = useState(holdsCurrentPage);
  useEffect(() => {
    if (holdsCurrentPage) setOpened(true);
  }, [holdsCurrentPage]);
  const Icon = menuIcon(item.icon);
  const label = t(menuLabelKey(item.titleKey));
  const icon = <Icon size={20} stroke={1.6} aria-hidden />;

  if (item.type === 'group') {
    return (
      <div role="group" aria-label={label}>
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4}>
          {label}
        </Text>
        {(item.children ?? []).map((child) => (
          <MenuEntry key={child.id} item={child} onNavigate={onNavigate} />
        ))}
      </div>
    );
  }

  if (item.type === 'collapse') {
    return (
      <NavLink
        component="button"
        type="button"
        label={label}
        leftSection={icon}
        rightSection={<IconChevronRight size={16} stroke={1.6} aria-hidden />}
        opened={opened}
        onChange={setOpened}
        aria-expanded={opened}
        childrenOffset={28}
        keepMounted={false}
        data-menu-id={item.id}
        className="side-menu-link"
      >
        {(item.children ?? []).map((child) => (
          <MenuEntry key={child.id} item={child} onNavigate={onNavigate} />
        ))}
      </NavLink>
    );
  }

  const active = isUnder(pathname, item.url);
  return (
    <NavLink
      component={Link}
      to={item.url ?? '/'}
      label={label}
      leftSection={icon}
      active={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
      data-menu-id={item.id}
      className="side-menu-link"
    />
  );
}

/** The side menu of section 2 "Layout", drawn from the items `visibleMenu` returned. */
export function SideMenu({ items, onNavigate }: { items: MenuItem[]; onNavigate?: () => void }) {
  const { t } = useTranslation('shell');
  return (
    <ScrollArea type="hover" scrollbarSize={8} h="100%">
      <nav aria-label={t('sideMenu.label')} data-testid="side-menu" className="side-menu">
        {items.map((item) => (
          <MenuEntry key={item.id} item={item} onNavigate={onNavigate} />
        ))}
      </nav>
    </ScrollArea>
  );
}
