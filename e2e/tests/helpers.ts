import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { menuItems, visibleMenu, type MenuItem } from '@pathwell/contracts/menu';
import type { Role } from '@pathwell/contracts/roles';
import type { MenuFlags } from '@pathwell/contracts/session';

export const DEMO_PASSWORD = 'Pathwell#2026';

/** Riverside's demo sign-ins (README): two admins, so one approves what the other writes (issue #15). */
const demoLogins = {
  manager: 'manager@pathwell.demo',
  admin: 'admin@pathwell.demo',
  approver: 'approver@pathwell.demo',
  doctor: 'doctor@pathwell.demo',
  staff: 'staff@pathwell.demo',
} as const;
type DemoLogin = keyof typeof demoLogins;

/** A demo user's API token and id, and the header that carries it, for calls made beside the screens. */
export async function apiSignIn(request: APIRequestContext, who: DemoLogin) {
  const response = await request.post('/api/users/authenticate', { data: { email: demoLogins[who], password: DEMO_PASSWORD } });
  expect(response.status(), await response.text()).toBe(200);
  const { token, id } = (await response.json()) as { token: string; id: string };
  return { token, id, headers: { authorization: `Bearer ${token}` } };
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/signin');
  await page.getByTestId('sign-in-email').fill(email);
  await page.getByTestId('sign-in-password').fill(password);
  await page.getByTestId('sign-in-submit').click();
  // The top bar's menu toggle shows at every width; the side menu itself is a drawer on phones.
  await expect(page.getByTestId('side-menu-toggle')).toBeVisible();
}

export async function signOut(page: Page) {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/signin/);
}

/** The demo clinics run with campaigns on and every other mode off. */
const demoFlags: MenuFlags = {
  devicePartnerMode: false,
  programMode: false,
  portalPro: false,
  mainstay: false,
  campaignsEnabled: true,
  campaignOnly: false,
  providerAppointmentDashboard: true,
};

export function expectedTopLevel(role: Role, isParent: boolean): { shown: MenuItem[]; hidden: MenuItem[] } {
  const shown = visibleMenu({ role, isParent, isChild: false, allClinicsView: false, flags: demoFlags });
  const shownIds = new Set(shown.map((item) => item.id));
  return { shown, hidden: menuItems.filter((item) => !shownIds.has(item.id)) };
}

/** A top-level menu entry: a group is a labelled role=group, the others carry data-menu-id. */
export function topLevelEntry(page: Page, item: MenuItem, label: string) {
  const menu = page.getByTestId('side-menu');
  return item.type === 'group'
    ? menu.getByRole('group', { name: label, exact: true })
    : menu.locator(`[data-menu-id="${item.id}"]`);
}

/**
 * Like Playwright's 'networkidle', but the realtime event stream (`/api/events`), which stays open by
 * design, does not count: resolves once no other request has been under way for `quietMs`.
 */
export async function waitForQuietNetwork(page: Page, quietMs = 500, timeoutMs = 15_000) {
  const open = new Set<unknown>();
  const counts = (request: { url(): string }) => !request.url().includes('/api/events');
  const onStart = (request: { url(): string }) => {
    if (counts(request)) open.add(request);
  };
  const onEnd = (request: unknown) => open.delete(request);
  page.on('request', onStart);
  page.on('requestfinished', onEnd);
  page.on('requestfailed', onEnd);
  try {
    await page.waitForLoadState('load');
    const deadline = Date.now() + timeoutMs;
    let quietSince = Date.now();
    while (Date.now() < deadline) {
      if (open.size > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= quietMs) return;
      await page.waitForTimeout(100);
    }
  } finally {
    page.off('request', onStart);
    page.off('requestfinished', onEnd);
    page.off('requestfailed', onEnd);
  }
}

/**
 * A new patient with one visit and an intake link made (not sent), through the staff API as the screens
 * do: the patient's 375 px journeys start from `url`.
 */
export async function patientWithIntake(
  request: APIRequestContext,
  auth: Record<string, string>,
  patient: { firstName: string; lastName: string; dateOfBirth: string; doctorId: string; email: string },
  startsAt: string,
) {
  const created = await request.post('/api/patients/create', {
    headers: auth,
    data: { ...patient, preferredLanguage: 'en', patientPhoneNumbers: [] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const patientId = ((await created.json()) as { id: string }).id;
  const visit = await request.post('/api/patientappointments', {
    headers: auth,
    data: { patientId, doctorId: patient.doctorId, startsAt, reason: 'new_patient' },
  });
  expect(visit.status(), await visit.text()).toBe(201);
  const appointmentId = ((await visit.json()) as { id: string }).id;
  const intake = await request.post('/api/patients/intake', { headers: auth, data: { patientId, appointmentId, send: [] } });
  expect(intake.status(), await intake.text()).toBe(201);
  const { url } = (await intake.json()) as { url: string };
  return { patientId, appointmentId, url };
}
