import { and, desc, eq, isNotNull, lt } from 'drizzle-orm';
import type { Database } from '../client';
import { appointments, notifications, outboxMessages, patientPhoneNumbers, patients, smsOptOuts, userMessages } from '../schema';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Believable messaging for a demo clinic (issue #11): two weeks of outbound emails and texts in every
 * status the communication dashboard shows, a patient who texted STOP, three "forms completed"
 * notifications and a short staff conversation. Bodies carry no links, so nothing here is a secret.
 */
export async function seedDemoMessaging(
  tx: Database,
  options: { instanceId: string; adminId: string; doctorId: string; now?: Date },
): Promise<void> {
  const now = options.now ?? new Date();
  const { instanceId } = options;
  const people = await tx
    .select({ id: patients.id, firstName: patients.firstName, email: patients.email, phone: patientPhoneNumbers.number })
    .from(patients)
    .innerJoin(
      patientPhoneNumbers,
      and(eq(patientPhoneNumbers.instanceId, patients.instanceId), eq(patientPhoneNumbers.patientId, patients.id)),
    )
    .where(and(eq(patients.instanceId, instanceId), isNotNull(patients.email)))
    .orderBy(patients.lastName, patients.firstName, patients.id)
    .limit(24);
  if (people.length < 12) return;

  const plan: {
    channel: 'email' | 'sms';
    status: (typeof outboxMessages.$inferInsert)['status'];
    template: string;
    daysAgo: number;
    error?: string;
    attempts?: number;
  }[] = [
    { channel: 'email', status: 'delivered', template: 'patient-link', daysAgo: 13 },
    { channel: 'sms', status: 'delivered', template: 'patient-link', daysAgo: 12 },
    { channel: 'email', status: 'sent', template: 'patient-link', daysAgo: 11 },
    { channel: 'sms', status: 'delivered', template: 'perioperative', daysAgo: 10 },
    { channel: 'email', status: 'sent', template: 'perioperative', daysAgo: 9 },
    { channel: 'sms', status: 'undelivered', template: 'patient-link', daysAgo: 8, error: 'Twilio error 30003' },
    { channel: 'email', status: 'delivered', template: 'patient-link', daysAgo: 7 },
    { channel: 'sms', status: 'suppressed', template: 'perioperative', daysAgo: 6, error: 'optedOut' },
    { channel: 'email', status: 'failed', template: 'patient-link', daysAgo: 5, error: '550: Mailbox unavailable', attempts: 6 },
    { channel: 'sms', status: 'delivered', template: 'patient-link', daysAgo: 4 },
    { channel: 'email', status: 'sent', template: 'patient-link', daysAgo: 3 },
    { channel: 'sms', status: 'delivered', template: 'perioperative', daysAgo: 2 },
    { channel: 'email', status: 'stored', template: 'patient-link', daysAgo: 1 },
    { channel: 'sms', status: 'stored', template: 'patient-link', daysAgo: 0 },
  ];
  const optedOut = people[7]!;
  // The opted-out patient gets a number no other demo patient can draw (830 is not among the
  // seed's area codes): an opt-out is per number, and a shared number would silence others too.
  const optedOutPhone = { number: '(830) 555-0100', digits: '8305550100' };
  await tx
    .update(patientPhoneNumbers)
    .set(optedOutPhone)
    .where(and(eq(patientPhoneNumbers.instanceId, instanceId), eq(patientPhoneNumbers.patientId, optedOut.id)));
  optedOut.phone = optedOutPhone.number;
  await tx.insert(outboxMessages).values(
    plan.map((entry, index) => {
      const person = people[index]!;
      const createdAt = new Date(now.getTime() - entry.daysAgo * DAY - (index % 5) * HOUR);
      const sent = ['sent', 'delivered', 'undelivered'].includes(entry.status ?? '');
      return {
        instanceId,
        channel: entry.channel,
        recipient: entry.channel === 'email' ? person.email! : `+1${person.phone.replace(/\D/g, '').slice(-10)}`,
        subject: entry.channel === 'email' ? 'Riverside Spine & Pain: your forms' : null,
        body:
          entry.template === 'perioperative'
            ? `Hi ${person.firstName}, a reminder from the clinic about your procedure. Call us with any questions.`
            : `Hi ${person.firstName}, please complete your forms before your visit. The clinic will send you the link.`,
        template: entry.template,
        status: entry.status,
        error: entry.error ?? null,
        patientId: person.id,
        attempts: entry.status === 'stored' || entry.status === 'suppressed' ? 0 : (entry.attempts ?? 1),
        providerMessageId: sent ? `demo-${entry.channel}-${index}` : null,
        createdAt,
        updatedAt: createdAt,
        sentAt: sent ? new Date(createdAt.getTime() + 2000) : null,
      };
    }),
  );
  await tx.insert(outboxMessages).values({
    instanceId,
    channel: 'sms',
    recipient: `+1${people[12]!.phone.replace(/\D/g, '').slice(-10)}`,
    body: `Hi ${people[12]!.firstName}, tomorrow is your procedure day. Nothing to eat after midnight.`,
    template: 'perioperative',
    status: 'scheduled',
    patientId: people[12]!.id,
    sendAfter: new Date(now.getTime() + 2 * DAY),
  });
  await tx.insert(smsOptOuts).values({
    instanceId,
    phone: `+1${optedOutPhone.digits}`,
    optedOut: true,
    keyword: 'STOP',
    updatedAt: new Date(now.getTime() - 7 * DAY),
  });

  const recent = await tx
    .select({ id: appointments.id, patientId: appointments.patientId, startsAt: appointments.startsAt })
    .from(appointments)
    .where(and(eq(appointments.instanceId, instanceId), lt(appointments.startsAt, now)))
    .orderBy(desc(appointments.startsAt))
    .limit(3);
  if (recent.length > 0) {
    await tx.insert(notifications).values(
      recent.map((appointment) => ({
        instanceId,
        kind: 'formsCompleted' as const,
        patientId: appointment.patientId,
        appointmentId: appointment.id,
        createdAt: new Date(appointment.startsAt.getTime() - 20 * 60_000),
      })),
    );
  }

  const { adminId, doctorId } = options;
  const talk = [
    {
      from: adminId,
      to: doctorId,
      body: 'Morning! Mrs. Alvarez asked to move her injection to Thursday. Is 2 pm OK?',
      hoursAgo: 26,
    },
    { from: doctorId, to: adminId, body: 'Thursday 2 pm works. Please send her the pre-procedure instructions.', hoursAgo: 25 },
    { from: adminId, to: doctorId, body: 'Done, and her intake forms are in.', hoursAgo: 24 },
    {
      from: doctorId,
      to: adminId,
      body: 'Thanks. Can you check whether the new PT referrals were faxed?',
      hoursAgo: 2,
      unread: true,
    },
  ];
  await tx.insert(userMessages).values(
    talk.map((message) => {
      const createdAt = new Date(now.getTime() - message.hoursAgo * HOUR);
      return {
        instanceId,
        fromUserId: message.from,
        toUserId: message.to,
        body: message.body,
        createdAt,
        seenAt: message.unread ? null : new Date(createdAt.getTime() + 10 * 60_000),
      };
    }),
  );
}
