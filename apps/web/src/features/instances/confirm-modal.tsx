import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/error-alert';
import { errorText } from '../../lib/error-text';

/** Asks before a destructive step; shows the server's refusal inside the dialog. */
export function ConfirmModal({
  opened,
  title,
  text,
  action,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  text: string;
  action: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation('instances');
  const run = useMutation({ mutationFn: onConfirm });
  const close = () => {
    run.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <Stack gap="md">
        {run.isError ? <ErrorAlert>{errorText(run.error)}</ErrorAlert> : null}
        <Text>{text}</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={close}>
            {t('common:cancel')}
          </Button>
          <Button color="red" loading={run.isPending} onClick={() => run.mutate()} data-testid="confirm-action">
            {action}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
