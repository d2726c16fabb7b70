import { eq, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityAction, ActivityArea } from '@pathwell/contracts/enums';
import { activityLogs, instances, oneTimeTokens, sessions, users } from '../../db/schema';
import { DEMO_PASSWORD } from '../../db/seed/demo';
import { hashPassword, sha256 } from '../../lib/secrets';
import { createTestApp, latestEmailTo, linkParams, type TestApp } from '../../../test/test-app';

/**
 * Every account step of the foundation writes one activity entry with actor, clinic, area, action,
 * target and IP address (issue #3, section 5). The steps run in order, as one person's day would.
 */
let t: TestApp;
let riverside: string;
const ids: Record<'staff' | 'pending' | 'invited', string> = { staff: '', pending: '', invited: '' };
const state = { token: '', challengeId: '', password: DEMO_PASSWORD };

let ipCounter = 0;
let currentIp = '';
const nextStepIp = () => (currentIp = `10.55.0.${++ipCounter}`);

const call = (method: 'POST' | 'PUT', url: string, payload: object, withToken = false) =>
  t.app.inject({
    method,
    url,
    payload,
    remoteAddress: currentIp,
    headers: withToken ? { authorization: `Bearer ${state.token}` } : {},
  });

async function signInStaff() {
  nextStepIp();
  const response = await call('POST', '/api/users/authenticate', { email: 'staff@pathwell.demo', password: state.password });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  if (body.token) state.token = body.token;
  if (body.challengeId) state.challengeId = body.challengeId;
}

const sessionIdOf = async (token: string) =>
  (
    await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(token)))
  )[0]!.id;

const codeFromEmail = async () => /sign-in code is (\d{6})/.exec((await latestEmailTo(t.db, 'staff@pathwell.demo')).body)![1]!;

interface Expected {
  who: 'staff' | 'pending' | 'invited' | 'nobody';
  clinic: 'riverside' | null;
  area: ActivityArea;
  action: ActivityAction;
  targetType: string;
  description: string;
  /** Resolved after the step, e.g. the session it opened; null when the entry names no record. */
  targetId: () => Promise<string | null>;
}

interface Step {
  step: string;
  prepare?: () => Promise<void>;
  act: () => Promise<{ statusCode: number }>;
  status: number;
  expected: Expected;
}

const login = (
  action: ActivityAction,
  targetType: string,
  description: string,
  who: Expected['who'] = 'staff',
  targetId: Expected['targetId'] = async () => null,
) => ({ who, clinic: 'riverside', area: 'Login Activity', action, targetType, description, targetId }) satisfies Expected;

const steps: Step[] = [
  {
    step: 'sign-in success',
    act: async () => {
      const response = await call('POST', '/api/users/authenticate', { email: 'staff@pathwell.demo', password: state.password });
      state.token = response.json().token;
      return response;
    },
    status: 200,
    expected: { ...login('Created', 'session', 'Signed in'), targetId: () => sessionIdOf(state.token) },
  },
  {
    step: 'sign-in failure: wrong password',
    act: () => call('POST', '/api/users/authenticate', { email: 'staff@pathwell.demo', password: 'Wrong#Pass1' }),
    status: 401,
    expected: login('Failed', 'session', 'Sign-in failed'),
  },
  {
    step: 'sign-in failure: unknown email (no clinic to file it under)',
    act: () => call('POST', '/api/users/authenticate', { email: 'ghost@pathwell.demo', password: 'Wrong#Pass1' }),
    status: 401,
    expected: { ...login('Failed', 'session', 'Sign-in failed', 'nobody'), clinic: null },
  },
  {
    step: 'sign-in refused: email not confirmed',
    act: () => call('POST', '/api/users/authenticate', { email: 'pending@pathwell.demo', password: DEMO_PASSWORD }),
    status: 403,
    expected: login('Failed', 'session', 'Sign-in refused: email not confirmed', 'pending'),
  },
  {
    step: 'sign-out',
    act: async () => {
      const sessionId = await sessionIdOf(state.token);
      const response = await call('POST', '/api/users/signout', {}, true);
      state.challengeId = sessionId; // remembered for the target check below
      return response;
    },
    status: 204,
    expected: { ...login('Deleted', 'session', 'Signed out'), targetId: async () => state.challengeId },
  },
  {
    step: 'two-factor sign-in turned on',
    prepare: signInStaff,
    act: () => call('PUT', '/api/users/me/twofactor', { enabled: true }, true),
    status: 200,
    expected: { ...login('Updated', 'two-factor sign-in', 'Two-factor sign-in turned on'), targetId: async () => ids.staff },
  },
  {
    step: 'two-factor code sent',
    act: async () => {
      const response = await call('POST', '/api/users/authenticate', { email: 'staff@pathwell.demo', password: state.password });
      state.challengeId = response.json().challengeId;
      return response;
    },
    status: 200,
    expected: { ...login('Sent', 'two-factor code', 'Sign-in code sent'), targetId: async () => state.challengeId },
  },
  {
    step: 'two-factor code sent again',
    act: () => call('POST', '/api/users/twofactor/send', { challengeId: state.challengeId }),
    status: 200,
    expected: { ...login('Sent', 'two-factor code', 'Sign-in code sent again'), targetId: async () => state.challengeId },
  },
  {
    step: 'two-factor code failed',
    act: async () => {
      const code = await codeFromEmail();
      return call('POST', '/api/users/twofactor/verify', {
        challengeId: state.challengeId,
        code: code === '000000' ? '111111' : '000000',
      });
    },
    status: 401,
    expected: { ...login('Failed', 'two-factor code', 'Wrong sign-in code'), targetId: async () => state.challengeId },
  },
  {
    step: 'two-factor code verified',
    act: async () => {
      const response = await call('POST', '/api/users/twofactor/verify', {
        challengeId: state.challengeId,
        code: await codeFromEmail(),
      });
      state.token = response.json().token;
      return response;
    },
    status: 200,
    expected: { ...login('Created', 'session', 'Signed in with two-factor code'), targetId: () => sessionIdOf(state.token) },
  },
  {
    step: 'two-factor code expired',
    prepare: async () => {
      const token = state.token;
      await signInStaff();
      state.token = token;
      await t.db
        .update(oneTimeTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(oneTimeTokens.id, state.challengeId));
    },
    act: async () => call('POST', '/api/users/twofactor/verify', { challengeId: state.challengeId, code: await codeFromEmail() }),
    status: 401,
    expected: {
      ...login('Failed', 'two-factor code', 'Sign-in code expired, used or out of attempts'),
      targetId: async () => state.challengeId,
    },
  },
  {
    step: 'two-factor sign-in turned off',
    act: () => call('PUT', '/api/users/me/twofactor', { enabled: false }, true),
    status: 200,
    expected: { ...login('Updated', 'two-factor sign-in', 'Two-factor sign-in turned off'), targetId: async () => ids.staff },
  },
  {
    step: 'password change refused: wrong current password',
    act: () =>
      call(
        'POST',
        '/api/users/changepassword',
        { id: ids.staff, currentPassword: 'Not#Mine123', newPassword: 'Newer#Pass2026', confirmNewPassword: 'Newer#Pass2026' },
        true,
      ),
    status: 400,
    expected: {
      ...login('Failed', 'password', 'Password change refused: current password not correct'),
      targetId: async () => ids.staff,
    },
  },
  {
    step: 'password changed',
    act: async () => {
      const response = await call(
        'POST',
        '/api/users/changepassword',
        { id: ids.staff, currentPassword: state.password, newPassword: 'Newer#Pass2026', confirmNewPassword: 'Newer#Pass2026' },
        true,
      );
      state.password = 'Newer#Pass2026';
      return response;
    },
    status: 200,
    expected: { ...login('Updated', 'password', 'Password changed'), targetId: async () => ids.staff },
  },
  {
    step: 'password reset link sent',
    act: () => call('POST', '/api/users/forgetPassword', { email: 'staff@pathwell.demo' }),
    status: 200,
    expected: { ...login('Sent', 'password', 'Password reset link sent'), targetId: async () => ids.staff },
  },
  {
    step: 'set-password link refused',
    act: () =>
      call('POST', '/api/users/setPassword', {
        id: ids.staff,
        token: 'not-the-token',
        newPassword: 'Reset#Pass2026',
        confirmNewPassword: 'Reset#Pass2026',
      }),
    status: 400,
    expected: { ...login('Failed', 'password', 'Set-password link not valid or expired'), targetId: async () => ids.staff },
  },
  {
    step: 'password reset from the emailed link',
    act: async () => {
      const { id, token } = linkParams((await latestEmailTo(t.db, 'staff@pathwell.demo')).body);
      const response = await call('POST', '/api/users/setPassword', {
        id,
        token,
        newPassword: 'Reset#Pass2026',
        confirmNewPassword: 'Reset#Pass2026',
      });
      state.password = 'Reset#Pass2026';
      return response;
    },
    status: 200,
    expected: { ...login('Updated', 'password', 'Password reset'), targetId: async () => ids.staff },
  },
  {
    step: 'account set up from the welcome email',
    prepare: async () => {
      nextStepIp();
      await call('POST', '/api/users/resendWelcomeEmail', { id: ids.invited });
    },
    act: async () => {
      const { id, token } = linkParams((await latestEmailTo(t.db, 'invited@pathwell.demo')).body);
      return call('POST', '/api/users/setPassword', {
        id,
        token,
        newPassword: 'Welcome#2026',
        confirmNewPassword: 'Welcome#2026',
      });
    },
    status: 200,
    expected: { ...login('Updated', 'password', 'Account set up', 'invited'), targetId: async () => ids.invited },
  },
  {
    step: 'own account updated',
    prepare: signInStaff,
    act: () =>
      call(
        'PUT',
        '/api/users/me',
        { firstName: 'Samuel', lastName: 'Lee', email: 'staff@pathwell.demo', profileImage: null },
        true,
      ),
    status: 200,
    expected: {
      who: 'staff',
      clinic: 'riverside',
      area: 'System Users',
      action: 'Updated',
      targetType: 'user',
      description: 'Updated own account',
      targetId: async () => ids.staff,
    },
  },
];

beforeAll(async () => {
  t = await createTestApp();
  const [clinic] = await t.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
  riverside = clinic!.id;
  ids.staff = (await t.db.select().from(users).where(eq(users.email, 'staff@pathwell.demo')))[0]!.id;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const extra = await t.db
    .insert(users)
    .values([
      {
        email: 'pending@pathwell.demo',
        firstName: 'Pat',
        role: 2,
        instanceId: riverside,
        passwordHash,
        status: 'pending_confirmation',
      },
      { email: 'invited@pathwell.demo', firstName: 'Ivy', role: 2, instanceId: riverside, status: 'invited' },
    ])
    .returning();
  ids.pending = extra[0]!.id;
  ids.invited = extra[1]!.id;
});
afterAll(async () => {
  await t?.close();
});

describe('audit coverage of the account steps', () => {
  it.each(steps)('$step writes one activity entry', async ({ prepare, act, status, expected }) => {
    await prepare?.();
    const before = (await t.db.select({ id: activityLogs.id }).from(activityLogs)).map((row) => row.id);
    nextStepIp();
    const response = await act();
    expect(response.statusCode).toBe(status);

    const written = await t.db.select().from(activityLogs).where(notInArray(activityLogs.id, before));
    expect(written).toHaveLength(1);
    const actorId = expected.who === 'nobody' ? null : ids[expected.who];
    expect(written[0]).toMatchObject({
      instanceId: expected.clinic === 'riverside' ? riverside : null,
      actorUserId: actorId,
      area: expected.area,
      action: expected.action,
      targetType: expected.targetType,
      description: expected.description,
      ip: currentIp,
    });
    expect(written[0]!.actorEmail).toMatch(/@pathwell\.demo$/);
    expect(written[0]!.targetId).toBe(await expected.targetId());
  });
});
