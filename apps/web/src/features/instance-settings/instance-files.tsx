import { Button, FileButton, Group, Image, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconExternalLink, IconTrash, IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  fileKindOf,
  fileRules,
  uploadableFileKeys,
  type FileKey,
  type InstanceFile,
  type InstanceSettingsView,
} from '@pathwell/contracts/instance-settings';
import { ErrorAlert } from '../../components/error-alert';
import { errorText } from '../../lib/error-text';
import { ApiError } from '../../lib/api-client';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { sessionQueries } from '../session/session.api';
import { instanceSettingsApi, instanceSettingsQueries } from './instance-settings.api';

const formatSize = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** A field error the server put on `file`, else the general message. */
function uploadErrorText(failure: unknown): string {
  const key = failure instanceof ApiError ? failure.fields.file : undefined;
  return (key && translateValidation(key)) || errorText(failure);
}

function useFileActions() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: instanceSettingsQueries.all().queryKey });
    // The top bar shows the primary logo from the session.
    void queryClient.invalidateQueries({ queryKey: sessionQueries.context().queryKey, exact: true });
  };
}

function FileDetails({ file }: { file: InstanceFile }) {
  const { t, i18n } = useTranslation('settings');
  return (
    <Text size="sm" c="dimmed" data-testid="file-details">
      {file.fileName} ·{' '}
      {t('files.details', { size: formatSize(file.size), date: new Date(file.uploadedAt).toLocaleDateString(i18n.language) })}
    </Text>
  );
}

/** Upload, replace, delete: each a call of its own, outside the settings form's Save. */
function FileSlotActions({
  label,
  file,
  accept,
  disabled,
  testId,
  onUpload,
  onDelete,
}: {
  label: string;
  file: InstanceFile | null;
  accept: string;
  disabled?: boolean;
  testId: string;
  onUpload: (file: File) => Promise<unknown>;
  onDelete: () => Promise<unknown>;
}) {
  const { t } = useTranslation('settings');
  const refresh = useFileActions();
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const upload = useMutation({
    mutationFn: onUpload,
    onSuccess: () => {
      setError(null);
      refresh();
      notify('success', t('files.uploaded', { name: label }));
    },
    onError: (failure) => setError(uploadErrorText(failure)),
  });
  const remove = useMutation({
    mutationFn: onDelete,
    onSuccess: () => {
      setConfirming(false);
      refresh();
      notify('success', t('files.deleted', { name: label }));
    },
    onError: (failure) => setError(errorText(failure)),
  });

  return (
    <Stack gap="xs">
      {error ? <ErrorAlert testId={`${testId}-error`}>{error}</ErrorAlert> : null}
      <Group gap="xs">
        <FileButton onChange={(chosen) => chosen && upload.mutate(chosen)} accept={accept} disabled={disabled}>
          {(props) => (
            <Button
              {...props}
              size="xs"
              variant="light"
              leftSection={<IconUpload size={14} aria-hidden />}
              loading={upload.isPending}
              disabled={disabled}
              aria-label={`${file ? t('files.replace') : t('files.upload')}: ${label}`}
              data-testid={`${testId}-upload`}
            >
              {file ? t('files.replace') : t('files.upload')}
            </Button>
          )}
        </FileButton>
        {file && !confirming ? (
          <Button
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={14} aria-hidden />}
            disabled={disabled}
            onClick={() => setConfirming(true)}
            aria-label={`${t('files.delete')}: ${label}`}
          >
            {t('files.delete')}
          </Button>
        ) : null}
        {file && confirming ? (
          <Group gap={4} role="group" aria-label={t('files.confirmDelete')}>
            <Text size="sm">{t('files.confirmDelete')}</Text>
            <Button
              size="xs"
              color="red"
              loading={remove.isPending}
              onClick={() => remove.mutate()}
              data-testid={`${testId}-confirm-delete`}
            >
              {t('files.yes')}
            </Button>
            <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
              {t('files.no')}
            </Button>
          </Group>
        ) : null}
      </Group>
    </Stack>
  );
}

function FileSlot({ fileKey, file }: { fileKey: FileKey; file: InstanceFile | null }) {
  const { t } = useTranslation('settings');
  const kind = fileKindOf(fileKey);
  const label = t(`fields.${fileKey}`);
  const [opening, setOpening] = useState(false);
  const open = async () => {
    if (!file?.url) return;
    setOpening(true);
    try {
      await instanceSettingsApi.openFile(file.url);
    } catch (failure) {
      notify('error', errorText(failure));
    } finally {
      setOpening(false);
    }
  };
  return (
    <Paper withBorder p="md" radius="md" data-testid={`file-${fileKey}`}>
      <Stack gap="sm">
        <div>
          <Text fw={600}>{label}</Text>
          <Text size="xs" c="dimmed">
            {t(kind === 'logo' ? 'files.logoRules' : 'files.agreementRules')}
          </Text>
        </div>
        {file ? (
          <Stack gap={6}>
            {kind === 'logo' && file.url ? (
              <Image
                src={file.url}
                alt={t('files.previewAlt', { name: label })}
                h={72}
                w="auto"
                fit="contain"
                style={{ alignSelf: 'flex-start' }}
              />
            ) : null}
            <FileDetails file={file} />
            {kind === 'agreement' ? (
              <Button
                size="xs"
                variant="subtle"
                leftSection={<IconExternalLink size={14} aria-hidden />}
                loading={opening}
                onClick={() => void open()}
                style={{ alignSelf: 'flex-start' }}
              >
                {t('files.open')}
              </Button>
            ) : null}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {t('files.none')}
          </Text>
        )}
        <FileSlotActions
          label={label}
          file={file}
          accept={fileRules[kind].accept}
          testId={`file-${fileKey}`}
          onUpload={(chosen) => instanceSettingsApi.uploadFile(fileKey, chosen)}
          onDelete={() => instanceSettingsApi.deleteFile(fileKey)}
        />
      </Stack>
    </Paper>
  );
}

export function InstanceFilesSection({ files }: { files: InstanceSettingsView['files'] }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      {uploadableFileKeys.map((key) => (
        <FileSlot key={key} fileKey={key} file={files[key]} />
      ))}
    </SimpleGrid>
  );
}

/** The eClinicalWorks bulk private key: write-only like a secret; only its name and date are shown. */
export function PrivateKeySlot({ file, disabled }: { file: InstanceFile | null; disabled: boolean }) {
  const { t } = useTranslation('settings');
  const label = t('fields.eClinicalWorksBulkPrivateKey');
  return (
    <Stack gap="xs" data-testid="file-eClinicalWorksBulkPrivateKey">
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Text size="xs" c="dimmed">
        {t('files.privateKeyRules')}
      </Text>
      {file ? (
        <FileDetails file={file} />
      ) : (
        <Text size="sm" c="dimmed">
          {t('secret.notSet')}
        </Text>
      )}
      <FileSlotActions
        label={label}
        file={file}
        accept={fileRules.privateKey.accept}
        disabled={disabled}
        testId="file-eClinicalWorksBulkPrivateKey"
        onUpload={(chosen) => instanceSettingsApi.uploadPrivateKey(chosen)}
        onDelete={() => instanceSettingsApi.deletePrivateKey()}
      />
    </Stack>
  );
}
