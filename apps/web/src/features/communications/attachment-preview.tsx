import { Alert, Anchor, Center, Group, Image, Loader, Modal, Stack } from '@mantine/core';
import { IconDownload, IconExternalLink } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommunicationAttachment } from '@pathwell/contracts/messaging';
import { errorText } from '../../lib/error-text';
import { fetchAttachment } from './communications.api';

export type OpenedAttachment = { messageId: string; attachment: CommunicationAttachment };

/**
 * A message's file (a support request's screenshot) in a dialog. It needs the session's Authorization
 * header, so it is fetched and shown from a blob URL, dropped again when the dialog closes.
 */
export function AttachmentPreview({ opened, onClose }: { opened: OpenedAttachment | null; onClose: () => void }) {
  const { t } = useTranslation('communications');
  const [src, setSrc] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const messageId = opened?.messageId;
  const attachmentId = opened?.attachment.id;

  useEffect(() => {
    if (!messageId || !attachmentId) return;
    let active = true;
    let url: string | null = null;
    setSrc(null);
    setFailure(null);
    fetchAttachment(messageId, attachmentId)
      .then((blob) => {
        if (!active) return;
        url = URL.createObjectURL(blob);
        setSrc(url);
      })
      .catch((error: unknown) => active && setFailure(errorText(error)));
    return () => {
      active = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [messageId, attachmentId]);

  const name = opened?.attachment.fileName ?? '';
  return (
    <Modal opened={opened !== null} onClose={onClose} title={t('attachments.title', { name })} size="xl" centered>
      {failure ? (
        <Alert color="red" data-testid="attachment-error">
          {failure}
        </Alert>
      ) : src ? (
        <Stack gap="sm">
          <Image src={src} alt={t('attachments.alt', { name })} fit="contain" mah="70vh" data-testid="attachment-image" />
          <Group gap="md">
            <Anchor href={src} target="_blank" rel="noopener noreferrer">
              <Group gap={4} component="span">
                <IconExternalLink size={16} aria-hidden />
                {t('attachments.newTab')}
              </Group>
            </Anchor>
            <Anchor href={src} download={name}>
              <Group gap={4} component="span">
                <IconDownload size={16} aria-hidden />
                {t('attachments.download')}
              </Group>
            </Anchor>
          </Group>
        </Stack>
      ) : (
        <Center py="xl">
          <Loader aria-label={t('attachments.loading')} />
        </Center>
      )}
    </Modal>
  );
}
