import { Avatar, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ErrorAlert } from '../../components/error-alert';
import { ApiError } from '../../lib/api-client';
import { errorText } from '../../lib/error-text';
import { isSignedIn, rememberReturnPath } from '../../lib/session-storage';
import { fullName } from './user-list';
import { userQueries } from './users.api';

function SignInPrompt() {
  const { t } = useTranslation('users');
  const location = useLocation();
  return (
    <Stack gap="md" data-testid="profile-sign-in">
      <Text>{t('profile.signInNeeded')}</Text>
      <Button component={Link} to="/signin" onClick={() => rememberReturnPath(location.pathname)}>
        {t('profile.signIn')}
      </Button>
    </Stack>
  );
}

function SignedInProfile({ id }: { id: string }) {
  const { t } = useTranslation('users');
  const profile = useQuery(userQueries.profile(id));
  if (profile.isError) {
    const missing = profile.error instanceof ApiError && (profile.error.status === 404 || profile.error.status === 400);
    return <ErrorAlert testId="profile-error">{missing ? t('profile.notAvailable') : errorText(profile.error)}</ErrorAlert>;
  }
  if (!profile.data) {
    return (
      <Center py="lg">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  }
  const user = profile.data;
  return (
    <Stack gap="md" data-testid="profile-card">
      <Group gap="lg">
        <Avatar src={user.profileImage} alt={t('profile.imageAlt', { name: fullName(user) })} size={80} radius={40} color="teal">
          {`${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase()}
        </Avatar>
        <Stack gap={2}>
          <Text fw={600} size="lg">
            {fullName(user)}
          </Text>
          <Text c="dimmed">{t(`roles.${user.role}`)}</Text>
          <Text size="sm">{user.email}</Text>
        </Stack>
      </Group>
      <Button component={Link} to="/" variant="light">
        {t('profile.back')}
      </Button>
    </Stack>
  );
}

/**
 * /users/profile/{id} is an open route (section 2). A visitor who is not signed in learns nothing about
 * the person, not even whether the profile exists; a signed-in user sees the name, role, email and
 * picture the server lets them read (themselves, or a colleague of their clinic).
 */
export function UserProfileView({ id }: { id: string }) {
  return isSignedIn() ? <SignedInProfile id={id} /> : <SignInPrompt />;
}
