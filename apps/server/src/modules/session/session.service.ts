import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { RoleCode } from '@pathwell/contracts/roles';
import type { SessionContext } from '@pathwell/contracts/session';
import type { Clinic, Doctor } from '@pathwell/contracts/users';
import type { SignedInContext } from '../../context';
import { instances, userInstances, users } from '../../db/schema';
import { notFound } from '../../lib/app-error';
import { idleMinutesFrom } from '../../plugins/auth';
import { toProfile } from '../auth/my-account.service';
import { primaryLogoUrl } from '../instance-settings/instance-files.service';
import { clinicTimeZoneFrom, isOn, readSettings } from '../settings/settings.service';
import { zoneOffsetMinutes } from '@pathwell/contracts/clinic-time';
import { clinicDisplayNameFrom } from '../patient-contact/clinic-name.service';

/** Clinics the user may switch between: memberships plus home; every clinic for a System Manager. */
export async function listClinics(ctx: SignedInContext): Promise<Clinic[]> {
  if (ctx.actor.role === 'SystemManager') {
    return ctx.db.select({ id: instances.id, name: instances.name }).from(instances).orderBy(asc(instances.name));
  }
  const memberIds = (
    await ctx.db.select({ id: userInstances.instanceId }).from(userInstances).where(eq(userInstances.userId, ctx.actor.userId))
  ).map((row) => row.id);
  const ids = [...new Set([...memberIds, ...(ctx.actor.homeInstanceId ? [ctx.actor.homeInstanceId] : [])])];
  if (ids.length === 0) return [];
  return ctx.db
    .select({ id: instances.id, name: instances.name })
    .from(instances)
    .where(and(inArray(instances.id, ids), eq(instances.isActive, true)))
    .orderBy(asc(instances.name));
}

export async function sessionContext(ctx: SignedInContext): Promise<SessionContext> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, ctx.actor.userId));
  const [instance] = await ctx.db.select().from(instances).where(eq(instances.id, ctx.instanceId));
  if (!user || !instance) throw notFound('sessionNotFound');
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const homeSettings =
    user.instanceId && user.instanceId !== ctx.instanceId ? await readSettings(ctx.db, user.instanceId) : settings;
  return {
    user: toProfile(user),
    instance: {
      id: instance.id,
      name: clinicDisplayNameFrom(settings, instance.name),
      logoUrl: await primaryLogoUrl(ctx.db, instance.id),
      timeZoneId: clinicTimeZoneFrom(settings),
      timeZoneOffsetHours: zoneOffsetMinutes(new Date(), clinicTimeZoneFrom(settings)) / 60,
    },
    allClinics: ctx.allClinics,
    clinics: ctx.actor.isParent || ctx.actor.role === 'SystemManager' ? await listClinics(ctx) : [],
    idleTimeoutMinutes: idleMinutesFrom(homeSettings.autoLogoutTime),
    flags: {
      devicePartnerMode: isOn(settings, 'devicePartnerMode'),
      programMode: isOn(settings, 'useNevro'),
      portalPro: isOn(settings, 'isPortalProClinic') || isOn(settings, 'enablePortalPro'),
      mainstay: isOn(settings, 'useMainstay'),
      campaignsEnabled: isOn(settings, 'useCodePull'),
      campaignOnly: isOn(settings, 'campaignOnly'),
      providerAppointmentDashboard: isOn(settings, 'enableProviderAppointmentDashboard'),
    },
    demoMode: ctx.config.demoMode,
  };
}

/** Doctors of the acting clinic for the top-bar doctor selector. */
export async function listProviders(ctx: SignedInContext): Promise<Doctor[]> {
  const members = ctx.db
    .select({ id: userInstances.userId })
    .from(userInstances)
    .where(eq(userInstances.instanceId, ctx.instanceId));
  const rows = await ctx.db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, instanceId: users.instanceId })
    .from(users)
    .where(and(eq(users.role, RoleCode.Doctor), eq(users.status, 'active'), isNull(users.deletedAt)))
    .orderBy(asc(users.lastName), asc(users.firstName));
  const memberIds = new Set((await members).map((row) => row.id));
  return rows
    .filter((row) => row.instanceId === ctx.instanceId || memberIds.has(row.id))
    .map(({ id, firstName, lastName }) => ({ id, firstName, lastName }));
}
