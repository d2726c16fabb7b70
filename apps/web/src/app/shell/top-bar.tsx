import { ActionIcon, Group, Image, Text, Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconMenu2, IconMessage } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConversationList } from '@pathwell/contracts/messaging';
import { NotificationBell } from '../../features/notifications/notification-bell';
import { api } from '../../lib/api-client';
import { useStaffEvent } from '../staff-events';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { canAccessPath } from '@pathwell/contracts/menu';
import type { SessionContext } from '@pathwell/contracts/session';
import { CountBadge } from '../../components/count-badge';
import { LanguageSwitcher } from '../../components/language-switcher';
import { menuContextOf } from '../session-context';
import { homePath } from '../route-table';
import { ClinicSelector } from './clinic-selector';
import { DoctorSelector } from './doctor-selector';
import { PatientSearch } from './patient-search';
import { UserMenu } from './user-menu';

/** Whether the top bar shows the clinic selector: parent users only (section 1). */
export const showsClinicSelector = (session: SessionContext) => session.user.isParent;
/**
 * Whether the top bar shows the doctor selector: not for Doctors, who work as themselves (section 1),
 * and not in the all-clinics view, where no single clinic's doctors apply.
 */
export const showsDoctorSelector = (session: SessionContext) => session.user.role !== 'Doctor' && !session.allClinics;

function ClinicBrand({ session }: { session: SessionContext }) {
  const { t } = useTranslation('shell');
  return (
    <UnstyledButton
      component={Link}
      to={homePath(session)}
      className="clinic-brand"
      // The clinic's name starts the link's name (label in name); where it leads is read out after it.
    >
      <Group gap="sm" wrap="nowrap">
        {session.instance.logoUrl ? (
          <Image src={session.instance.logoUrl} alt="" h={36} w="auto" fit="contain" />
        ) : (
          <span className="clinic-monogram" aria-hidden>
            {session.instance.name.charAt(0)}
          </span>
        )}
        <Text fw={700} size="md" c="teal.9" truncate className="clinic-name" data-testid="clinic-name">
          {session.instance.name}
        </Text>
        <VisuallyHidden>{t('goToPatientsHint')}</VisuallyHidden>
      </Group>
    </UnstyledButton>
  );
}

export function TopBar({
  session,
  menuOpened,
  onToggleMenu,
  wide,
  compact,
  onSignOut,
}: {
  session: SessionContext;
  menuOpened: boolean;
  onToggleMenu: () => void;
  /** Wide screens hold search and selectors in the bar; narrower ones move them to the side panel. */
  wide: boolean;
  compact: boolean;
  onSignOut: () => void;
}) {
  const { t } = useTranslation('shell');
  const ctx = menuContextOf(session);
  const showMessages = canAccessPath(ctx, '/user-messages');

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
      <Group gap="sm" wrap="nowrap" className="top-bar-start">
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          onClick={onToggleMenu}
          aria-label={t(menuOpened ? 'sideMenu.hide' : 'sideMenu.show')}
          aria-expanded={menuOpened}
          data-testid="side-menu-toggle"
        >
          <IconMenu2 size={22} aria-hidden />
        </ActionIcon>
        <ClinicBrand session={session} />
        {wide ? <PatientSearch /> : null}
      </Group>
      <Group gap={compact ? 4 : 'xs'} wrap="nowrap">
        {wide && showsClinicSelector(session) ? <ClinicSelector session={session} /> : null}
        {wide && showsDoctorSelector(session) ? <DoctorSelector /> : null}
        <LanguageSwitcher />
        {showMessages ? <MessagesLink /> : null}
        <NotificationBell timeZone={session.instance.timeZoneId} />
        <UserMenu session={session} compact={compact} onSignOut={onSignOut} />
      </Group>
    </Group>
  );
}

/** The top-bar messages icon with the number of unread staff messages (issue #11 §5). */
function MessagesLink() {
  const { t } = useTranslation('shell');
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: ['userMessages', 'unread'],
    queryFn: () => api.get<ConversationList>('/api/usermessages/users', { background: true }),
    staleTime: Infinity,
    // A shell call: it fails silently (specification section 8).
    meta: { silent: true },
  });
  useStaffEvent('message', () => void queryClient.invalidateQueries({ queryKey: ['userMessages'] }));
  const unread = data?.unread ?? 0;
  return (
    <Tooltip label={t('messages')} withArrow>
      <ActionIcon
        component={Link}
        to="/user-messages"
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={unread ? t('messagesUnread', { count: unread }) : t('messages')}
        data-testid="messages-link"
        className="notification-bell"
      >
        <IconMessage size={20} aria-hidden />
        <CountBadge count={unread} testId="messages-count" />
      </ActionIcon>
    </Tooltip>
  );
}
