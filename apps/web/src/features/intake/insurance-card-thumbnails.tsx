import { Anchor, Group, Image, Skeleton, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InsuranceCardPhoto } from '@pathwell/contracts/intake';
import { apiFetch } from '../../lib/api-client';

const THUMB = { w: 120, h: 76 };

/** The image needs the session's Authorization header, so it is fetched and shown as a blob URL. */
function CardThumbnail({ photo }: { photo: InsuranceCardPhoto }) {
  const { t } = useTranslation('intakeStaff');
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const side = t(`card.cardSides.${photo.side}`);

  useEffect(() => {
    let active = true;
    let url: string | null = null;
    apiFetch(photo.url, { accept: 'image/*', background: true })
      .then((response) => response.blob())
      .then((blob) => {
        if (!active) return;
        url = URL.createObjectURL(blob);
        setSrc(url);
      })
      .catch(() => active && setFailed(true));
    return () => {
      active = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [photo.url]);

  return (
    <Stack gap={2} align="flex-start" data-testid="intake-card-photo">
      {src ? (
        <Anchor href={src} target="_blank" rel="noopener noreferrer" aria-label={t('card.cardPhotoOpen', { side })}>
          <Image src={src} alt={t('card.cardPhotoAlt', { side })} {...THUMB} fit="cover" radius="sm" />
        </Anchor>
      ) : failed ? (
        <Text size="xs" c="dimmed">
          {t('card.cardPhotoFailed')}
        </Text>
      ) : (
        <Skeleton {...THUMB} radius="sm" />
      )}
      <Text size="xs">{side}</Text>
    </Stack>
  );
}

/** Photos of the insurance cards from the intake's paperwork: thumbnails that open the full image in a new tab. */
export function InsuranceCardThumbnails({ photos }: { photos: InsuranceCardPhoto[] }) {
  const { t } = useTranslation('intakeStaff');
  if (photos.length === 0) return null;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {t('card.insuranceCards')}
      </Text>
      <Group gap="sm" wrap="wrap">
        {photos.map((photo) => (
          <CardThumbnail key={photo.id} photo={photo} />
        ))}
      </Group>
    </Stack>
  );
}
