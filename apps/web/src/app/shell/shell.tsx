import { AppShell, Box, Drawer, LoadingOverlay, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLoaderData, useLocation, useNavigate } from 'react-router';
import { SIGN_OUT_DELAY_MS } from '@pathwell/contracts/constants';
import { canAccessPath, visibleMenu } from '@pathwell/contracts/menu';
import type { SessionContext } from '@pathwell/contracts/session';
import { connectStaffEvents } from '../staff-events';
import { authApi } from '../../features/auth/auth.api';
import { sessionQueries } from '../../features/session/session.api';
import { notify } from '../../lib/notify';
import {
  clearSession,
  getDoctorId,
  isSideMenuCollapsed,
  setDoctorId,
  setSideMenuCollapsed,
  storageKeys,
} from '../../lib/session-storage';
import { UnauthorizedPage } from '../error-pages/error-pages';
import { menuContextOf, SessionReactContext } from '../session-context';
import { useIdleTimeout } from '../use-idle-timeout';
import { ClinicSelector } from './clinic-selector';
import { DoctorSelector } from './doctor-selector';
import { PatientSearch } from './patient-search';
import { SideMenu } from './side-menu';
import { showsClinicSelector, showsDoctorSelector, TopBar } from './top-bar';

const HEADER_HEIGHT = 64;
const delay = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

/** Search and selectors, in the side panel when the top bar has no room for them. */
function PanelTools({ session }: { session: SessionContext }) {
  return (
    <Stack gap="xs" p="sm" pb={0}>
      <PatientSearch width="100%" />
      {showsClinicSelector(session) ? <ClinicSelector session={session} width="100%" /> : null}
      {showsDoctorSelector(session) ? <DoctorSelector width="100%" /> : null}
    </Stack>
  );
}

/** Layout of every signed-in page (section 2 Layout): top bar, collapsible side menu, idle logout. */
export function Shell() {
  const { t } = useTranslation('shell');
  const loaderSession = useLoaderData() as SessionContext;
  const session = useQuery(sessionQueries.context()).data ?? loaderSession;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();

  const isMobile = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const isWide = useMediaQuery('(min-width: 75em)', true, { getInitialValueInEffect: false });
  const isCompact = useMediaQuery('(max-width: 61.99em)', false, { getInitialValueInEffect: false });
  const [collapsed, setCollapsed] = useState(isSideMenuCollapsed);
  const [drawerOpened, setDrawerOpened] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  const menuContext = useMemo(() => menuContextOf(session), [session]);
  const menuItems = useMemo(() => visibleMenu(menuContext), [menuContext]);
  const allowed = canAccessPath(menuContext, location.pathname);

  // One realtime stream per tab while signed in: the bell and messages hear changes as they happen.
  useEffect(() => connectStaffEvents(), []);
  useEffect(() => {
    if (session.user.role === 'Doctor' && getDoctorId() !== session.user.id) setDoctorId(session.user.id);
  }, [session.user.id, session.user.role]);

  useEffect(() => {
    document.title = session.instance.name;
    return () => {
      document.title = 'Pathwell';
    };
  }, [session.instance.name]);

  useEffect(() => {
    setDrawerOpened(false);
  }, [location.pathname]);

  const signOut = useCallback(
    async (reason?: 'idle') => {
      if (signingOut) return;
      setSigningOut(true);
      await authApi.signOut().catch(() => undefined);
      clearSession();
      if (reason === 'idle') notify('info', t('idleSignedOut'));
      await delay(SIGN_OUT_DELAY_MS);
      await navigate('/', { replace: true });
      queryClient.clear();
    },
    [navigate, queryClient, signingOut, t],
  );

  useIdleTimeout(session.idleTimeoutMinutes, () => void signOut('idle'));

  // Signing out in another tab removes the token from shared storage: follow it here too.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === storageKeys.token && !event.newValue) void navigate('/signin', { replace: true });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [navigate]);

  const menuOpened = isMobile ? drawerOpened : !collapsed;
  const toggleMenu = () => {
    if (isMobile) {
      setDrawerOpened((opened) => !opened);
      return;
    }
    setCollapsed((value) => {
      setSideMenuCollapsed(!value);
      return !value;
    });
  };

  return (
    <SessionReactContext.Provider value={session}>
      <a href="#main-content" className="skip-link">
        {t('skipToContent')}
      </a>
      <AppShell
        header={{ height: HEADER_HEIGHT }}
        navbar={
          isMobile
            ? undefined
            : { width: { base: '19rem', xl: '21.6rem' }, breakpoint: 'sm', collapsed: { desktop: collapsed, mobile: true } }
        }
        padding="lg"
        className="app-shell"
      >
        <AppShell.Header>
          <TopBar
            session={session}
            menuOpened={menuOpened}
            onToggleMenu={toggleMenu}
            wide={isWide && !isMobile}
            compact={isCompact}
            onSignOut={() => void signOut()}
          />
        </AppShell.Header>
        {isMobile ? null : (
          <AppShell.Navbar className="side-panel">
            {isWide ? null : <PanelTools session={session} />}
            <AppShell.Section grow style={{ minHeight: 0 }}>
              <SideMenu items={menuItems} />
            </AppShell.Section>
          </AppShell.Navbar>
        )}
        <AppShell.Main id="main-content" tabIndex={-1} className="app-main">
          <Box key={location.pathname} className="route-fade">
            {allowed ? <Outlet /> : <UnauthorizedPage />}
          </Box>
        </AppShell.Main>
      </AppShell>
      {isMobile ? (
        <Drawer
          opened={drawerOpened}
          onClose={() => setDrawerOpened(false)}
          size="19rem"
          padding={0}
          title={t('sideMenu.label')}
          closeButtonProps={{ 'aria-label': t('sideMenu.hide') }}
          className="side-drawer"
        >
          <PanelTools session={session} />
          <SideMenu items={menuItems} onNavigate={() => setDrawerOpened(false)} />
        </Drawer>
      ) : null}
      <LoadingOverlay visible={signingOut} pos="fixed" zIndex={950} overlayProps={{ backgroundOpacity: 0.5 }} />
    </SessionReactContext.Provider>
  );
}
