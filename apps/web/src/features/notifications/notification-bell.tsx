import {
  ActionIcon,
  Box,
  Button,
  Divider,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { notifications as toasts } from '@mantine/notifications';
import { IconAlertTriangle, IconBell } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { NOTIFICATION_POPUP_MS, type StaffNotification } from '@pathwell/contracts/messaging';
import { CountBadge } from '../../components/count-badge';
import { useStaffEvent } from '../../app/staff-events';
import { notificationKeys, notificationQueries, useNotificationMarks } from './notifications.api';
import { notificationPath, notificationText } from './notification-text';

const CHATTER_NOTIFICATION_PATH = '/patients/nevro/chatternotification';
/** A notification older than this when first heard of is listed, not popped up. */
const POPUP_RECENT_MS = 15 * 60_000;

/**
 * The top-bar bell (specification sections 2, 4 and 9): unseen count, the latest 50 newest first,
 * unseen ones bold with a marker, Clear All (disabled at 0 unseen), "See all" to the notification
 * page. A new notification pops up once for 10 s; showing it sets `notified`.
 */
export function NotificationBell({ timeZone }: { timeZone: string }) {
  const { t } = useTranslation('notifications');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const { data } = useQuery(notificationQueries.latest());
  const marks = useNotificationMarks();
  const shown = useRef(new Set<string>());

  useStaffEvent('notification', () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all }));

  const unseen = data?.unseen ?? 0;
  const items = data?.data ?? [];

  useEffect(() => {
    // Only what arrived lately pops up; older unseen ones wait in the list (a sign-in is not news).
    const fresh = items.filter(
      (item) =>
        !item.notified &&
        !item.seen &&
        !shown.current.has(item.id) &&
        Date.now() - new Date(item.createdAt).getTime() < POPUP_RECENT_MS,
    );
    if (fresh.length === 0) return;
    for (const item of fresh) {
      shown.current.add(item.id);
      toasts.show({
        id: `notification-${item.id}`,
        color: item.urgent ? 'red' : 'teal',
        title: t(`popupTitles.${item.kind}`),
        message: notificationText(t, item, timeZone),
        // An urgent one stays until it is closed: a clinician may be away from the screen for 10 s.
        autoClose: item.urgent ? false : NOTIFICATION_POPUP_MS,
        withCloseButton: true,
      });
    }
    marks.notified.mutate(fresh.map((item) => item.id));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the list changes
  }, [items]);

  // The list shows every popup's notification, and the popups sit over it (top right, above the dropdown):
  // opening the list puts them away.
  const toggleList = () => {
    if (!opened) for (const id of shown.current) toasts.hide(`notification-${id}`);
    setOpened((value) => !value);
  };

  const open = (item: StaffNotification) => {
    setOpened(false);
    if (!item.seen) marks.seen.mutate([item.id]);
    void navigate(notificationPath(item));
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={380} shadow="md" withArrow trapFocus>
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          onClick={toggleList}
          aria-label={unseen ? t('countLabel', { count: unseen }) : t('label')}
          aria-expanded={opened}
          aria-haspopup="dialog"
          data-testid="notification-bell"
          className="notification-bell"
        >
          <IconBell size={20} aria-hidden />
          <CountBadge count={unseen} testId="notification-count" />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={0} role="dialog" aria-label={t('label')}>
        <Group justify="space-between" px="sm" py="xs">
          <Text fw={700}>{t('label')}</Text>
          <Button
            size="compact-sm"
            variant="subtle"
            disabled={unseen === 0}
            loading={marks.clearAll.isPending}
            onClick={() => marks.clearAll.mutate()}
            data-testid="notifications-clear-all"
          >
            {t('clearAll')}
          </Button>
        </Group>
        <Divider />
        <ScrollArea.Autosize mah={420}>
          {items.length === 0 ? (
            <Text c="dimmed" p="md" ta="center" data-testid="notifications-empty">
              {t('empty')}
            </Text>
          ) : (
            <Stack gap={0} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {items.map((item) => (
                <Box component="li" key={item.id}>
                  <UnstyledButton
                    onClick={() => open(item)}
                    px="sm"
                    py="xs"
                    w="100%"
                    className="notification-item"
                    data-testid="notification-item"
                    data-unseen={!item.seen || undefined}
                    data-urgent={item.urgent || undefined}
                    bg={item.urgent ? 'red.0' : undefined}
                  >
                    <Group gap="xs" wrap="nowrap" align="flex-start">
                      {item.urgent ? (
                        <IconAlertTriangle
                          size={16}
                          color="var(--mantine-color-red-8)"
                          style={{ flexShrink: 0, marginTop: 2 }}
                          aria-hidden
                        />
                      ) : (
                        <Indicator color={item.seen ? 'transparent' : 'teal'} size={8} position="middle-start" mt={8} aria-hidden>
                          <span />
                        </Indicator>
                      )}
                      <Text size="sm" fw={item.seen && !item.urgent ? 400 : 700} c={item.urgent ? 'red.9' : undefined}>
                        {!item.seen ? <span className="visually-hidden">{t('unseen')} </span> : null}
                        {item.urgent ? <span className="visually-hidden">{t('urgent')} </span> : null}
                        {notificationText(t, item, timeZone)}
                      </Text>
                    </Group>
                  </UnstyledButton>
                </Box>
              ))}
            </Stack>
          )}
        </ScrollArea.Autosize>
        <Divider />
        <Box p="xs" ta="center">
          <Button
            component={Link}
            to={CHATTER_NOTIFICATION_PATH}
            variant="subtle"
            size="compact-sm"
            onClick={() => setOpened(false)}
          >
            {t('seeAll')}
          </Button>
        </Box>
      </Popover.Dropdown>
    </Popover>
  );
}
