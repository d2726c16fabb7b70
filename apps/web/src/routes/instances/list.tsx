import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session-context';
import { PageHeader } from '../../components/page-header';
import { AddInstanceButton, InstanceList } from '../../features/instances/instance-list';

export function Component() {
  const { t } = useTranslation('instances');
  const session = useSession();
  const isSystemManager = session.user.role === 'SystemManager';
  return (
    <>
      <PageHeader
        title={t('instances.title')}
        description={isSystemManager ? t('instances.descriptionManager') : t('instances.descriptionAdmin')}
        actions={isSystemManager ? <AddInstanceButton /> : null}
      />
      <InstanceList currentInstanceId={session.instance.id} isSystemManager={isSystemManager} />
    </>
  );
}
