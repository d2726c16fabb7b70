import { Anchor } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The way in to /admin/procedurenotetemplates, which has no side-menu item (decision 0040). */
export function ProcedureNoteTemplatesLink() {
  const { t } = useTranslation('procedureNotes');
  return (
    <Anchor component={Link} to="/admin/procedurenotetemplates" size="sm" data-testid="procedure-note-templates-link">
      <IconFileText size={14} aria-hidden style={{ verticalAlign: 'middle', marginRight: 4 }} />
      {t('adminLink')}
    </Anchor>
  );
}
