import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, Loader, Paper, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { HOTLIST_REASON_MAX, hotlistInputSchema, type HotlistFormValues, type HotlistInput } from '@pathwell/contracts/hotlists';
import { useSession } from '../../../app/session-context';
import { ErrorAlert } from '../../../components/error-alert';
import { PageHeader } from '../../../components/page-header';
import { errorText } from '../../../lib/error-text';
import { applyServerFieldErrors } from '../../../lib/form-errors';
import { translateValidation } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { hotlistApi, hotlistKeys, hotlistQueries } from './hotlists.api';
import { canManageHotlists } from './hotlist-shared';

/**
 * /patienthotlist/newcampaign (issue #15 §4): a hot list from a hot-list template, with the number of
 * patients it would hold now; the list is frozen when it is made.
 */
export function NewHotlist() {
  const { t } = useTranslation('outreachHotlists');
  const session = useSession();
  if (!canManageHotlists(session.user.role)) {
    return (
      <>
        <PageHeader title={t('create.title')} />
        <Alert color="yellow" variant="light" data-testid="hotlist-create-refused">
          {t('create.managersOnly')}
        </Alert>
      </>
    );
  }
  if (session.allClinics) {
    return (
      <>
        <PageHeader title={t('create.title')} />
        <Alert color="yellow" variant="light" data-testid="hotlist-create-refused">
          {t('create.oneClinic')}
        </Alert>
      </>
    );
  }
  return <NewHotlistForm />;
}

function NewHotlistForm() {
  const { t } = useTranslation('outreachHotlists');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const templates = useQuery(hotlistQueries.templates());
  const form = useForm<HotlistFormValues, unknown, HotlistInput>({
    resolver: zodResolver(hotlistInputSchema),
    defaultValues: { name: '', templateId: '', reason: '' },
  });
  const templateId = form.watch('templateId');
  const preview = useQuery({ ...hotlistQueries.preview(templateId), enabled: Boolean(templateId) });

  const create = useMutation({
    mutationFn: hotlistApi.create,
    onSuccess: (list) => {
      void queryClient.invalidateQueries({ queryKey: hotlistKeys.all });
      notify('success', t('create.created', { name: list.name, count: list.progress.total }));
      void navigate(`/patienthotlist/${list.id}`);
    },
    onError: (error) => {
      if (!applyServerFieldErrors(error, form.setError, ['name', 'templateId', 'reason'])) notify('error', errorText(error));
    },
  });
  const fieldError = (name: 'name' | 'templateId' | 'reason') => translateValidation(form.formState.errors[name]?.message);
  const options = (templates.data?.data ?? []).map((template) => ({ value: template.id, label: template.name }));

  return (
    <Stack gap="lg" maw={720}>
      <PageHeader title={t('create.title')} description={t('create.description')} />
      <Paper
        withBorder
        radius="lg"
        p="lg"
        component="form"
        noValidate
        onSubmit={form.handleSubmit((values) => create.mutate(values))}
        aria-label={t('create.title')}
      >
        <Stack gap="md">
          <TextInput
            label={t('create.name')}
            required
            maxLength={120}
            {...form.register('name')}
            error={fieldError('name')}
            data-testid="hotlist-name"
          />
          {templates.isError ? (
            <ErrorAlert testId="hotlist-templates-error">
              {t('create.templatesFailed')} {errorText(templates.error)}
            </ErrorAlert>
          ) : null}
          {templates.data && options.length === 0 ? (
            <Alert color="blue" variant="light" data-testid="hotlist-no-templates">
              <Text size="sm">{t('create.noTemplates')}</Text>
              <Anchor component={Link} to="/hotlisttemplatelist" size="sm">
                {t('create.makeTemplate')}
              </Anchor>
            </Alert>
          ) : null}
          <Controller
            control={form.control}
            name="templateId"
            render={({ field }) => (
              <Select
                label={t('create.template')}
                placeholder={t('create.templatePlaceholder')}
                required
                data={options}
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                ref={field.ref}
                searchable
                disabled={!templates.data}
                rightSection={templates.isPending ? <Loader size="xs" aria-label={t('loading')} /> : undefined}
                error={fieldError('templateId')}
                data-testid="hotlist-template"
              />
            )}
          />
          {templateId ? (
            <Text size="sm" aria-live="polite" data-testid="hotlist-preview">
              {preview.isPending
                ? t('create.previewLoading')
                : preview.isError
                  ? `${t('create.previewFailed')} ${errorText(preview.error)}`
                  : t('create.previewCount', { count: preview.data?.count ?? 0 })}
            </Text>
          ) : null}
          <Textarea
            label={t('create.reason')}
            description={t('create.reasonDescription')}
            autosize
            minRows={2}
            maxLength={HOTLIST_REASON_MAX}
            {...form.register('reason')}
            error={fieldError('reason')}
            data-testid="hotlist-reason"
          />
          <Group justify="flex-end">
            <Button component={Link} to="/patienthotlist/dashboard" variant="default">
              {t('create.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending} data-testid="hotlist-submit">
              {t('create.submit')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
