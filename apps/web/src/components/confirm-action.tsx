import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/error-text';
import { ErrorAlert } from './error-alert';

/**
 * Asks before a step that cannot be taken back (delete, archive, finish, switch off): the question, a
 * cancel button and the action, which runs `onConfirm` and closes on success; the server's refusal is
 * shown inside the dialog, which stays open.
 */
export function ConfirmAction({
  opened,
  title,
  children,
  action,
  color = 'red.8',
  onConfirm,
  onClose,
  testId = 'confirm-action',
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  action: string;
  color?: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  const run = useMutation({ mutationFn: onConfirm, onSuccess: onClose });
  const close = () => {
    run.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <Stack gap="md">
        {run.isError ? <ErrorAlert testId={`${testId}-error`}>{errorText(run.error)}</ErrorAlert> : null}
        <Text>{children}</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={close}>
            {t('common:cancel')}
          </Button>
          <Button color={color} loading={run.isPending} onClick={() => run.mutate()} data-testid={testId}>
            {action}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
