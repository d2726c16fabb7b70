import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AccountLayout } from '../../components/account-layout';

const sections = ['use', 'accounts', 'privacy', 'clinical', 'availability', 'changes', 'contact'] as const;

export function Component() {
  const { t } = useTranslation('terms');
  return (
    <AccountLayout title={t('title')} subtitle={t('updated')} width={760}>
      <Stack gap="lg">
        <Text>{t('intro')}</Text>
        {sections.map((section, index) => (
          <section key={section} aria-labelledby={`terms-${section}`}>
            <Title order={2} size="h4" id={`terms-${section}`} mb={6}>
              {`${index + 1}. ${t(`sections.${section}.title`)}`}
            </Title>
            <Text>{t(`sections.${section}.body`)}</Text>
          </section>
        ))}
        <Text size="sm" c="dimmed">
          {t('note')}
        </Text>
      </Stack>
    </AccountLayout>
  );
}
