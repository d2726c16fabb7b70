import { Button, Group } from '@mantine/core';
import { IconAlertTriangle, IconClockHour4, IconLock, IconMapSearch, IconServerOff, IconTool } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StatusPage } from './status-page';

type PageProps = { fullPage?: boolean };

function HomeButton() {
  const { t } = useTranslation('errors');
  return (
    <Button component={Link} to="/" variant="light">
      {t('backHome')}
    </Button>
  );
}

export function NotFoundPage({ fullPage = true }: PageProps) {
  const { t } = useTranslation('errors');
  return (
    <StatusPage
      testId="page-not-found"
      fullPage={fullPage}
      icon={<IconMapSearch size={40} />}
      code="404"
      title={t('notFound.title')}
      text={t('notFound.text')}
      actions={<HomeButton />}
    />
  );
}

export function UnexpectedErrorPage({ fullPage = true }: PageProps) {
  const { t } = useTranslation('errors');
  return (
    <StatusPage
      testId="page-unexpected"
      fullPage={fullPage}
      icon={<IconAlertTriangle size={40} />}
      title={t('unexpected.title')}
      text={t('texts.unexpected')}
      actions={<Button onClick={() => window.location.reload()}>{t('unexpected.refresh')}</Button>}
    />
  );
}

export function UnauthorizedPage({ fullPage = false }: PageProps) {
  const { t } = useTranslation('errors');
  return (
    <StatusPage
      testId="page-unauthorized"
      fullPage={fullPage}
      icon={<IconLock size={40} />}
      code="403"
      title={t('unauthorized.title')}
      text={t('texts.unauthorized')}
      actions={<HomeButton />}
    />
  );
}

export function ServerErrorPage({ fullPage = true }: PageProps) {
  const { t } = useTranslation('errors');
  return (
    <StatusPage
      testId="page-server-error"
      fullPage={fullPage}
      icon={<IconServerOff size={40} />}
      code="500"
      title={t('serverError.title')}
      text={t('serverError.text')}
      actions={
        <Group>
          <Button onClick={() => window.location.reload()}>{t('unexpected.refresh')}</Button>
          <HomeButton />
        </Group>
      }
    />
  );
}

export function MaintenancePage({ fullPage = true }: PageProps) {
  const { t } = useTranslation('errors');
  return (
    <StatusPage
      testId="page-maintenance"
      fullPage={fullPage}
      icon={<IconTool size={40} />}
      title={t('maintenance.title')}
      text={t('maintenance.text')}
    />
  );
}

/** The one page every route not built yet shows (section 2 "coming-soon"). */
export function ComingSoonPage({ fullPage = false }: PageProps) {
  const { t } = useTranslation('errors');
  return (
    <StatusPage
      testId="page-coming-soon"
      fullPage={fullPage}
      icon={<IconClockHour4 size={40} />}
      title={t('comingSoon.title')}
      text={t('comingSoon.text')}
    />
  );
}
