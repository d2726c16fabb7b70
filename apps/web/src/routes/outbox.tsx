import { Button } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { UnauthorizedPage } from '../app/error-pages/error-pages';
import { useSession } from '../app/session-context';
import { PageHeader } from '../components/page-header';
import { OutboxList } from '../features/outbox/outbox-list';

/** Demo-mode outbox, System Managers only: the emails and texts the server would have sent. */
export function Component() {
  const { t } = useTranslation('outbox');
  const session = useSession();
  const queryClient = useQueryClient();
  if (session.user.role !== 'SystemManager' || !session.demoMode) return <UnauthorizedPage />;
  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Button
            variant="light"
            leftSection={<IconRefresh size={16} aria-hidden />}
            onClick={() => void queryClient.invalidateQueries({ queryKey: ['outbox'] })}
            data-testid="outbox-refresh"
          >
            {t('refresh')}
          </Button>
        }
      />
      <OutboxList />
    </>
  );
}
