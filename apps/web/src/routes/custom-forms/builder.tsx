import { Anchor, Button, Center, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { CustomFormBuilder } from '../../features/custom-forms/custom-form-builder';
import { customFormQueries } from '../../features/custom-forms/custom-forms.api';
import { errorText } from '../../lib/error-text';

function BackLink() {
  const { t } = useTranslation('customForms');
  return (
    <Anchor component={Link} to="/customforms" size="sm">
      {t('builder.back')}
    </Anchor>
  );
}

function EditCustomForm({ id }: { id: string }) {
  const { t } = useTranslation('customForms');
  const form = useQuery(customFormQueries.detail(id));
  if (form.isError) {
    return (
      <>
        <PageHeader title={t('builder.editTitle')} actions={<BackLink />} />
        <Stack gap="sm" align="flex-start">
          <ErrorAlert testId="custom-form-load-error">
            {t('builder.loadError')}: {errorText(form.error)}
          </ErrorAlert>
          <Button variant="light" onClick={() => void form.refetch()}>
            {t('retry')}
          </Button>
        </Stack>
      </>
    );
  }
  if (!form.data) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  }
  return (
    <>
      <PageHeader title={t('builder.editTitle')} description={form.data.content.title.en} actions={<BackLink />} />
      {/* A new key after each save or version change starts the form from the saved content. */}
      <CustomFormBuilder key={`${form.data.id}-${form.data.currentVersion}`} form={form.data} />
    </>
  );
}

/** `/customforms/new` builds a new form; `/customforms/{id}` edits one. */
export function Component() {
  const { t } = useTranslation('customForms');
  const { id } = useParams();
  if (id && id !== 'new') return <EditCustomForm id={id} />;
  return (
    <>
      <PageHeader title={t('builder.createTitle')} actions={<BackLink />} />
      <CustomFormBuilder />
    </>
  );
}
