import { sql } from 'drizzle-orm';
import { RoleCode } from '@pathwell/contracts/roles';
import { seedDemoMessaging } from './demo-messaging';
import { seedDemoIntake } from './demo-intake';
import { seedDemoConsents } from './demo-consents';
import { seedDemoProcedureNotes } from './demo-procedure-notes';
import { seedDemoCare } from './demo-care';
import { seedDemoPainJournal } from './demo-pain-journal';
import { seedDemoMedicines } from './demo-medicines';
import { seedDemoPathways } from './demo-pathways';
import { seedDemoReports } from './demo-reports';
import { seedDemoOutreach } from './demo-outreach';
import type { Database } from '../client';
import { instances, instanceSettings, organisations, userInstances, users } from '../schema';
import { hashPassword } from '../../lib/secrets';
import { seedDemoPatients } from './demo-patients';
import { seedInstanceDefaults } from '../../modules/instances/instance-defaults';

export const DEMO_PASSWORD = 'Pathwell#2026';

export const demoUsers = [
  {
    email: 'manager@pathwell.demo',
    firstName: 'Morgan',
    lastName: 'Reyes',
    role: 'SystemManager',
    clinic: 'riverside',
    isParent: false,
  },
  { email: 'admin@pathwell.demo', firstName: 'Alex', lastName: 'Carter', role: 'Admin', clinic: 'riverside', isParent: false },
  {
    email: 'doctor@pathwell.demo',
    firstName: 'Daniela',
    lastName: 'Ortiz',
    role: 'Doctor',
    clinic: 'riverside',
    isParent: false,
  },
  { email: 'staff@pathwell.demo', firstName: 'Sam', lastName: 'Lee', role: 'Staff', clinic: 'riverside', isParent: false },
  { email: 'admin2@pathwell.demo', firstName: 'Jordan', lastName: 'Blake', role: 'Admin', clinic: 'lakeside', isParent: false },
  // Riverside's second admin: approves the campaigns the first one writes (issue #15).
  {
    email: 'approver@pathwell.demo',
    firstName: 'Taylor',
    lastName: 'Nguyen',
    role: 'Admin',
    clinic: 'riverside',
    isParent: false,
  },
  { email: 'parent@pathwell.demo', firstName: 'Priya', lastName: 'Shah', role: 'Admin', clinic: 'riverside', isParent: true },
] as const;

const clinicSettings = (name: string, phone: string, address: string) => ({
  clinicName: name,
  clinicAddress: address,
  clinicEmail: 'frontdesk@pathwell.demo',
  clinicPhoneNumber: phone,
  defaultState: 'TX',
  timeZoneId: 'America/Chicago',
  timeZoneOffsetHours: '-6',
  autoLogoutTime: '30',
  enableEmail: 'true',
  enableSms: 'false',
  useCodePull: 'true',
  defaultPainScore: '0',
  // The intake's payment step shows the amount due and offers paying at the desk (issue #12).
  enablePaymentCollection: 'true',
  showIntakeFormForNewPatients: 'true',
  // Reports (issue #14): the Provider Appointment Dashboard and the sandbox's BMI filter are on in the demo.
  enableProviderAppointmentDashboard: 'true',
  showBmiFilterOnSandbox: 'true',
});

export async function isDatabaseEmpty(db: Database): Promise<boolean> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  return Number(row?.count ?? 0) === 0;
}

/** The demo parent organisation with two clinics and one user per role (issue #2, section 6). */
export async function seedDemo(db: Database): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const [organisation] = await tx.insert(organisations).values({ name: 'Gulf Coast Pain Partners' }).returning();
    const [riverside, lakeside] = await tx
      .insert(instances)
      .values([
        { name: 'Riverside Spine & Pain', organisationId: organisation!.id },
        { name: 'Lakeside Pain Center', organisationId: organisation!.id },
      ])
      .returning();
    const clinics = { riverside: riverside!, lakeside: lakeside! };
    for (const clinic of Object.values(clinics)) await seedInstanceDefaults(tx, clinic.id);
    const settings = {
      riverside: {
        ...clinicSettings('Riverside Spine & Pain', '(512) 555-0142', '1200 River Rd, Austin, TX 78701'),
        // The appointment dashboard offers a QR code per visit for checking in from the patient's phone.
        enablePatientSelfCheckin: 'true',
        // Injection consents are signed on the patient's phone or the clinic's tablet (decision 0036).
        enableShotConsent: 'true',
        enableDigitalShotConsent: 'true',
        // Providers draft, sign and amend procedure notes from templates (decision 0040).
        enableProcedureNote: 'true',
      },
      lakeside: clinicSettings('Lakeside Pain Center', '(512) 555-0198', '45 Lakeshore Dr, Austin, TX 78703'),
    };
    for (const [key, values] of Object.entries(settings) as [keyof typeof clinics, Record<string, string>][]) {
      await tx.insert(instanceSettings).values(
        Object.entries(values).map(([configurationId, configurationValue]) => ({
          instanceId: clinics[key].id,
          configurationId,
          configurationValue,
        })),
      );
    }
    const doctors: Partial<Record<keyof typeof clinics, string>> = {};
    let riversideAdmin: string | null = null;
    let riversideApprover: string | null = null;
    let riversideStaff: string | null = null;
    for (const demo of demoUsers) {
      const [user] = await tx
        .insert(users)
        .values({
          email: demo.email,
          firstName: demo.firstName,
          lastName: demo.lastName,
          role: RoleCode[demo.role],
          isParent: demo.isParent,
          instanceId: clinics[demo.clinic].id,
          passwordHash,
          status: 'active',
        })
        .returning();
      const memberOf = demo.isParent ? [clinics.riverside, clinics.lakeside] : [clinics[demo.clinic]];
      await tx.insert(userInstances).values(memberOf.map((clinic) => ({ userId: user!.id, instanceId: clinic.id })));
      if (demo.role === 'Doctor') doctors[demo.clinic] = user!.id;
      if (demo.email === 'admin@pathwell.demo') riversideAdmin = user!.id;
      if (demo.email === 'approver@pathwell.demo') riversideApprover = user!.id;
      if (demo.email === 'staff@pathwell.demo') riversideStaff = user!.id;
    }
    // 150 patients per clinic with six months of visits (docs/decisions/0015-demo-and-volume-data.md).
    await seedDemoPatients(tx, { instanceId: clinics.riverside.id, doctorId: doctors.riverside ?? null, seed: 1 });
    await seedDemoPatients(tx, { instanceId: clinics.lakeside.id, doctorId: doctors.lakeside ?? null, seed: 2 });
    if (riversideAdmin && doctors.riverside) {
      await seedDemoMessaging(tx, { instanceId: clinics.riverside.id, adminId: riversideAdmin, doctorId: doctors.riverside });
    }
    await seedDemoIntake(tx, { instanceId: clinics.riverside.id, timeZone: 'America/Chicago' });
    await seedDemoConsents(tx, { instanceId: clinics.riverside.id, timeZone: 'America/Chicago' });
    // Interventional care first: the pathway and pain-journal demo data build on its procedures.
    await seedDemoCare(tx, { instanceId: clinics.riverside.id });
    await seedDemoProcedureNotes(tx, { instanceId: clinics.riverside.id });
    await seedDemoPainJournal(tx, { instanceId: clinics.riverside.id, timeZone: 'America/Chicago' });
    await seedDemoMedicines(tx, { instanceId: clinics.riverside.id, timeZone: 'America/Chicago' });
    await seedDemoPathways(tx, { instanceId: clinics.riverside.id, timeZone: 'America/Chicago' });
    await seedDemoReports(tx, { instanceId: clinics.riverside.id, timeZone: 'America/Chicago' });
    // Campaigns and hot lists last: the coded visits follow every visit the other demo files made.
    if (riversideAdmin && riversideApprover && riversideStaff) {
      await seedDemoOutreach(tx, {
        instanceId: clinics.riverside.id,
        timeZone: 'America/Chicago',
        authorId: riversideAdmin,
        approverId: riversideApprover,
        staffId: riversideStaff,
      });
    }
  });
}

/** Production start on an empty database: one clinic and its first System Manager from the environment. */
export async function bootstrapFirstManager(db: Database, admin: { email: string; password: string }): Promise<void> {
  const passwordHash = await hashPassword(admin.password);
  await db.transaction(async (tx) => {
    const [clinic] = await tx.insert(instances).values({ name: 'My clinic' }).returning();
    await seedInstanceDefaults(tx, clinic!.id);
    const [user] = await tx
      .insert(users)
      .values({
        email: admin.email.toLowerCase(),
        firstName: 'System',
        lastName: 'Manager',
        role: RoleCode.SystemManager,
        instanceId: clinic!.id,
        passwordHash,
        status: 'active',
      })
      .returning();
    await tx.insert(userInstances).values({ userId: user!.id, instanceId: clinic!.id });
  });
}
