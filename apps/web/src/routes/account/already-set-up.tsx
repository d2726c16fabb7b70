import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AccountLayout } from '../../components/account-layout';

export function Component() {
  const { t } = useTranslation('auth');
  return (
    <AccountLayout title={t('alreadySetUp.title')}>
      <Stack gap="md">
        <Text>{t('alreadySetUp.text')}</Text>
        <Button component={Link} to="/signin">
          {t('signIn.submit')}
        </Button>
        <Anchor component={Link} to="/forget-password" size="sm" ta="center">
          {t('signIn.forgotPassword')}
        </Anchor>
      </Stack>
    </AccountLayout>
  );
}
