import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { supportRequestSchema, type SupportRequest } from '@pathwell/contracts/messaging';
import { PageHeader } from '../../components/page-header';
import { api } from '../../lib/api-client';
import { errorText } from '../../lib/error-text';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';

/** /contactsupport: a request to the support team, by email (SUPPORT_EMAIL) or kept in the outbox. */
export function ContactSupport() {
  const { t } = useTranslation('communications');
  const form = useForm<SupportRequest>({
    resolver: zodResolver(supportRequestSchema),
    defaultValues: { subject: '', message: '' },
  });
  const send = useMutation({
    mutationFn: (values: SupportRequest) => api.post<{ id: string; status: string }>('/api/support/contact', values),
    onSuccess: (result) => {
      notify('success', t(result.status === 'stored' ? 'support.stored' : 'support.sent'));
      form.reset();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  const fieldError = (name: keyof SupportRequest) => translateValidation(form.formState.errors[name]?.message);
  return (
    <Stack gap="lg" maw={720}>
      <PageHeader title={t('support.title')} description={t('support.description')} />
      <Card
        withBorder
        radius="lg"
        padding="lg"
        component="form"
        onSubmit={form.handleSubmit((values) => send.mutate(values))}
        noValidate
      >
        <Stack gap="md">
          <TextInput
            label={t('support.subject')}
            required
            {...form.register('subject')}
            error={fieldError('subject')}
            data-testid="support-subject"
          />
          <Textarea
            label={t('support.message')}
            required
            autosize
            minRows={6}
            {...form.register('message')}
            error={fieldError('message')}
            data-testid="support-message"
          />
          <Button type="submit" loading={send.isPending} style={{ alignSelf: 'flex-start' }} data-testid="support-send">
            {t('support.send')}
          </Button>
        </Stack>
      </Card>
    </Stack>
  );
}
