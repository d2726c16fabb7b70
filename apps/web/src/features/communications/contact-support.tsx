import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, FileInput, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconPhoto, IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type ComponentProps } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  SUPPORT_SCREENSHOT_MAX_BYTES,
  supportRequestSchema,
  supportScreenshotTypes,
  type SupportRequest,
} from '@pathwell/contracts/messaging';
import { PageHeader } from '../../components/page-header';
import { api, ApiError } from '../../lib/api-client';
import { errorText } from '../../lib/error-text';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { formatFileSize } from './file-size';

const MAX_MEGABYTES = SUPPORT_SCREENSHOT_MAX_BYTES / 1024 / 1024;

/** The file as a `data:image/…;base64,` URL, the form the API takes it in. */
function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('unreadable')));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

type Screenshot = { file: File; dataUrl: string };

/** /contactsupport: a request to the support team, by email (SUPPORT_EMAIL) or kept in the outbox. */
export function ContactSupport() {
  const { t, i18n } = useTranslation('communications');
  const form = useForm<SupportRequest>({
    resolver: zodResolver(supportRequestSchema),
    defaultValues: { subject: '', message: '' },
  });
  const [screenshot, setScreenshot] = useState<Screenshot | null>(null);
  const [screenshotError, setScreenshotError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  // Only the latest choice counts when a slow read finishes after another file was picked.
  const choice = useRef(0);
  const fileInput = useRef<HTMLButtonElement>(null);

  const removeScreenshot = () => {
    choice.current += 1;
    setScreenshot(null);
    setScreenshotError(null);
    setReading(false);
  };

  const pickScreenshot = async (file: File | null) => {
    removeScreenshot();
    if (!file) return;
    const size = formatFileSize(file.size, i18n.language);
    if (!(supportScreenshotTypes as readonly string[]).includes(file.type)) {
      setScreenshotError(t('support.screenshotType'));
      return;
    }
    if (file.size > SUPPORT_SCREENSHOT_MAX_BYTES) {
      setScreenshotError(t('support.screenshotTooLarge', { size, megabytes: MAX_MEGABYTES }));
      return;
    }
    const mine = choice.current;
    setReading(true);
    try {
      const dataUrl = await readAsDataUrl(file);
      if (mine === choice.current) setScreenshot({ file, dataUrl });
    } catch {
      if (mine === choice.current) setScreenshotError(t('support.screenshotUnreadable'));
    } finally {
      if (mine === choice.current) setReading(false);
    }
  };

  const send = useMutation({
    mutationFn: (values: SupportRequest) =>
      api.post<{ id: string; status: string }>('/api/support/contact', {
        ...values,
        ...(screenshot ? { screenshot: screenshot.dataUrl, screenshotName: screenshot.file.name.slice(0, 200) } : {}),
      }),
    onSuccess: (result) => {
      notify('success', t(result.status === 'stored' ? 'support.stored' : 'support.sent'));
      form.reset();
      removeScreenshot();
    },
    onError: (error) => {
      // A screenshot the server refused (its bytes are not the image they claim) shows under the file field.
      const refused = error instanceof ApiError ? error.fields.screenshot : undefined;
      if (refused) setScreenshotError(translateValidation(refused) ?? refused);
      notify('error', errorText(error));
    },
  });
  const fieldError = (name: 'subject' | 'message') => translateValidation(form.formState.errors[name]?.message);
  const chosenName = screenshot?.file.name ?? '';

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
          <Stack gap={6}>
            <FileInput
              ref={fileInput}
              label={t('support.screenshot')}
              description={t('support.screenshotHelp', { megabytes: MAX_MEGABYTES })}
              placeholder={t('support.screenshotPlaceholder')}
              // The file input's placeholder is real text (not ::placeholder): Mantine's light grey fails contrast.
              styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
              accept={supportScreenshotTypes.join(',')}
              leftSection={<IconPhoto size={16} aria-hidden />}
              value={screenshot?.file ?? null}
              onChange={(file) => void pickScreenshot(file)}
              error={screenshotError}
              fileInputProps={{ 'data-testid': 'support-screenshot-input' } as ComponentProps<'input'>}
              data-testid="support-screenshot"
            />
            {screenshot ? (
              <Group gap="xs" data-testid="support-screenshot-chosen">
                <Text size="sm">
                  {t('support.screenshotChosen', {
                    name: chosenName,
                    size: formatFileSize(screenshot.file.size, i18n.language),
                  })}
                </Text>
                <Button
                  variant="subtle"
                  color="red"
                  size="compact-sm"
                  leftSection={<IconTrash size={14} aria-hidden />}
                  onClick={() => {
                    removeScreenshot();
                    fileInput.current?.focus();
                  }}
                  aria-label={t('support.removeScreenshotLabel', { name: chosenName })}
                  data-testid="support-screenshot-remove"
                >
                  {t('support.removeScreenshot')}
                </Button>
              </Group>
            ) : null}
          </Stack>
          <Button
            type="submit"
            loading={send.isPending}
            disabled={reading}
            style={{ alignSelf: 'flex-start' }}
            data-testid="support-send"
          >
            {t('support.send')}
          </Button>
        </Stack>
      </Card>
    </Stack>
  );
}
