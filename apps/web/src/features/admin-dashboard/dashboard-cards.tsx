import { Paper, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCalendarEvent,
  IconClipboardCheck,
  IconLogin,
  IconUserHeart,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AdminDashboard } from '@pathwell/contracts/admin-dashboard';

type CountKey = Exclude<keyof AdminDashboard, 'latestActivity'>;

const cards: { key: CountKey; icon: Icon; color: string }[] = [
  { key: 'activeUsers', icon: IconUsers, color: 'blue' },
  { key: 'signInsToday', icon: IconLogin, color: 'teal' },
  { key: 'failedSignInsThisWeek', icon: IconAlertTriangle, color: 'orange' },
  { key: 'patients', icon: IconUserHeart, color: 'grape' },
  { key: 'appointmentsToday', icon: IconCalendarEvent, color: 'cyan' },
  { key: 'formsCompletedThisWeek', icon: IconClipboardCheck, color: 'indigo' },
];

/** The clinic's counts at a glance. */
export function DashboardCards({ summary }: { summary: AdminDashboard }) {
  const { t, i18n } = useTranslation('dashboard');
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
      {cards.map(({ key, icon: CardIcon, color }) => {
        const value = summary[key];
        return (
          <Paper
            key={key}
            withBorder
            radius="lg"
            p="lg"
            component="section"
            aria-label={t(`cards.${key}`)}
            data-testid={`dashboard-${key}`}
          >
            <ThemeIcon variant="light" color={color} size="lg" radius="md" mb="sm" aria-hidden>
              <CardIcon size={20} />
            </ThemeIcon>
            <Text size="sm" c="dimmed">
              {t(`cards.${key}`)}
            </Text>
            <Text fw={700} fz={32} lh={1.2}>
              {value.toLocaleString(i18n.language)}
            </Text>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
