import { Badge } from '@mantine/core';

/**
 * The red count on a top-bar icon (bell, messages). Nothing at 0; the icon's own label says the number
 * to screen readers, so the badge is hidden from them.
 */
export function CountBadge({ count, testId }: { count: number; testId: string }) {
  if (count <= 0) return null;
  return (
    <Badge size="xs" circle color="red" className="notification-badge" aria-hidden data-testid={testId}>
      {count > 99 ? '99+' : count}
    </Badge>
  );
}
