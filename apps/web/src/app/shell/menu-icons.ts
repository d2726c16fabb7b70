import { IconPoint, type Icon } from '@tabler/icons-react';
import * as iconSet from './menu-icon-set';

/** Menu items name their Tabler icon; this maps the names to components. */
export const menuIcons: Readonly<Record<string, Icon>> = iconSet;

export function menuIcon(name: string | undefined): Icon {
  return (name && menuIcons[name]) || IconPoint;
}
