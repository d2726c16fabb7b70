import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { EnumOption } from '@pathwell/contracts/enumerations';
import { menuAccessFor } from '@pathwell/contracts/menu';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
import { errorText } from '../../lib/error-text';

/** Whether the signed-in user may change a list: the access of its admin page in the side menu, as the server checks. */
export function useCanWrite(menuPath: string): boolean {
  const session = useSession();
  return menuAccessFor(menuPath)?.includes(session.user.role) ?? false;
}

export function optionLabel(option: EnumOption | undefined, language: string): string | undefined {
  if (!option) return undefined;
  return language.startsWith('es') ? option.label.es : option.label.en;
}

/** Asks before deleting; shows the server's refusal inside the dialog instead of closing it. */
export function ConfirmDeleteModal({
  opened,
  title,
  body,
  onCancel,
  onConfirm,
}: {
  opened: boolean;
  title: string;
  body: ReactNode;
  onCancel: () => void;
  onConfirm: () => Promise<void>;
}) {
  const { t } = useTranslation('lists');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setError(null);
    onCancel();
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <Stack gap="md">
        {error ? <ErrorAlert testId="delete-error">{error}</ErrorAlert> : null}
        <Text>{body}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('common:cancel')}
          </Button>
          <Button color="red" loading={busy} onClick={() => void confirm()} data-testid="confirm-delete">
            {t('delete.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
