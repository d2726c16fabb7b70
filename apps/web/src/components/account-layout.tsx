import { Anchor, Box, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Brand } from './brand';
import { LanguageSwitcher } from './language-switcher';

/**
 * Frame of the open account pages: brand, language switch, one centred card, and below it the link to
 * the terms (`footer` replaces it, e.g. on the clinic's own terms and privacy pages).
 */
export function AccountLayout({
  title,
  subtitle,
  children,
  width = 440,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  width?: number;
  footer?: ReactNode;
}) {
  const { t } = useTranslation('common');
  useEffect(() => {
    document.title = `${title} · Pathwell`;
  }, [title]);

  return (
    <Box className="account-page">
      <Group justify="space-between" px={{ base: 'md', sm: 'xl' }} py="md" component="header">
        <Anchor component={Link} to="/signin" underline="never" aria-label={t('appHome')}>
          <Brand />
        </Anchor>
        <LanguageSwitcher />
      </Group>
      <Container
        size={width}
        px={{ base: 'sm', sm: 'md' }}
        pb="xl"
        pt={{ base: 'xs', sm: 'xl' }}
        component="main"
        id="main-content"
      >
        <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 'xl' }}>
          <Stack gap="lg">
            <div>
              <Title order={1} size="h2">
                {title}
              </Title>
              {subtitle ? (
                <Text c="dimmed" mt={4}>
                  {subtitle}
                </Text>
              ) : null}
            </div>
            {children}
          </Stack>
        </Paper>
        <Text ta="center" size="sm" c="dimmed" mt="lg">
          {footer ?? (
            <Anchor component={Link} to="/terms-and-conditions" c="dimmed" size="sm">
              {t('termsLink')}
            </Anchor>
          )}
        </Text>
      </Container>
    </Box>
  );
}
