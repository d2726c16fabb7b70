import { ActionIcon, Alert, Button, Center, CopyButton, Group, Loader, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { IconPrinter, IconQrcode } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../lib/notify';

/** The patient-facing self check-in page of one visit (decision 0034), on this server. */
const selfCheckInUrl = (patientId: string, appointmentId: string, origin = window.location.origin) =>
  `${origin}/patients/${patientId}/appointments/${appointmentId}/patient-checkin`;

type Props = { patientId: string; appointmentId: string; patientName: string; timeText: string };

/**
 * A QR code staff show on a screen or print for the patient to scan at the clinic. The code library
 * is loaded when a code is first shown, so it does not weigh on the dashboard.
 */
export function SelfCheckInQrButton(props: Props) {
  const { t } = useTranslation('apptDashboard');
  const [opened, setOpened] = useState(false);
  const label = t('qr.open', { name: props.patientName });
  return (
    <>
      <Tooltip label={label} withArrow>
        <ActionIcon variant="subtle" aria-label={label} onClick={() => setOpened(true)} data-testid="self-checkin-qr-open">
          <IconQrcode size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      {opened && <SelfCheckInQrModal {...props} onClose={() => setOpened(false)} />}
    </>
  );
}

function SelfCheckInQrModal({ patientId, appointmentId, patientName, timeText, onClose }: Props & { onClose: () => void }) {
  const { t } = useTranslation('apptDashboard');
  const url = selfCheckInUrl(patientId, appointmentId);
  const [image, setImage] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((QRCode) => QRCode.toDataURL(url, { width: 320, margin: 2, errorCorrectionLevel: 'M' }))
      .then((dataUrl) => live && setImage(dataUrl))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [url]);

  const print = () => {
    if (!image) return;
    const sheet = window.open('', '_blank', 'width=480,height=640');
    if (!sheet) return notify('error', t('qr.popupBlocked'));
    const doc = sheet.document;
    doc.title = t('qr.title');
    const body = doc.body;
    body.style.cssText = 'font-family: system-ui, sans-serif; text-align: center; padding: 24px;';
    const heading = doc.createElement('h1');
    heading.textContent = t('qr.printHeading');
    const who = doc.createElement('p');
    who.textContent = `${patientName} · ${timeText}`;
    const picture = doc.createElement('img');
    picture.src = image;
    picture.alt = t('qr.imageAlt', { name: patientName });
    picture.width = 320;
    const hint = doc.createElement('p');
    hint.textContent = t('qr.instructions');
    body.append(heading, who, picture, hint);
    picture.onload = () => sheet.print();
  };

  return (
    <Modal opened onClose={onClose} title={t('qr.title')} centered data-testid="self-checkin-qr">
      <Stack gap="sm">
        <Text size="sm">
          {patientName} · {timeText}
        </Text>
        <Text size="sm" c="dimmed">
          {t('qr.instructions')}
        </Text>
        <Center mih={240}>
          {failed ? (
            <Alert color="red" role="alert">
              {t('qr.failed')}
            </Alert>
          ) : image ? (
            <img
              src={image}
              width={240}
              height={240}
              alt={t('qr.imageAlt', { name: patientName })}
              data-testid="self-checkin-qr-image"
            />
          ) : (
            <Loader aria-label={t('qr.loading')} />
          )}
        </Center>
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }} data-testid="self-checkin-qr-url">
          {url}
        </Text>
        <Group justify="flex-end" gap="xs">
          <CopyButton value={url}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? t('qr.copied') : t('qr.copy')}
              </Button>
            )}
          </CopyButton>
          <Button leftSection={<IconPrinter size={16} aria-hidden />} onClick={print} disabled={!image}>
            {t('qr.print')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
