import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { customFieldKinds, type CustomFieldKind } from '@pathwell/contracts/enumerations';
import { findManagedList } from '@pathwell/contracts/managed-lists';
import { ManagedListPage } from './managed-list-page';

export const isCustomFieldKind = (value: string | undefined): value is CustomFieldKind =>
  (customFieldKinds as readonly string[]).includes(value ?? '');

/**
 * The seven custom-field lists on one page with a tab per kind: they are not in the side menu, so
 * the tabs are the index that leads from one to the others (docs/decisions/0008-managed-list-fields.md).
 */
export function CustomFieldsPage({ kind }: { kind: CustomFieldKind }) {
  const { t } = useTranslation('lists');
  const navigate = useNavigate();
  const list = findManagedList(`customfield:${kind}`)!;
  return (
    <ManagedListPage key={list.listType} list={list} title={`${t('customFields.title')}: ${t(`customFieldKinds.${kind}`)}`}>
      <Tabs
        value={kind}
        onChange={(value) => {
          if (value) void navigate(`/admin/customfields/${value}`);
        }}
        mb="md"
        keepMounted={false}
      >
        <Tabs.List aria-label={t('customFields.kindsLabel')}>
          {customFieldKinds.map((value) => (
            <Tabs.Tab key={value} value={value} data-testid={`custom-field-tab-${value}`}>
              {t(`customFieldKinds.${value}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
    </ManagedListPage>
  );
}
