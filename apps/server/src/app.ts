import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { redactLinkTokens } from './lib/redact-url';
import type { DatabaseHandle } from './db/client';
import { registerFactListeners } from './domain-listeners';
import { activityRoutes } from './modules/activity/activity.routes';
import { adminDashboardRoutes } from './modules/admin-dashboard/admin-dashboard.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { appointmentRoutes } from './modules/appointments/appointments.routes';
import { customFormRoutes } from './modules/custom-forms/custom-forms.routes';
import { enumRoutes } from './modules/enums/enums.routes';
import { fhirRoutes } from './modules/fhir/fhir.routes';
import { criticalFindingRoutes } from './modules/critical-findings/critical-findings.routes';
import { formResponseRoutes } from './modules/form-responses/form-responses.routes';
import { healthRoutes } from './modules/health/health.routes';
import { instanceRoutes } from './modules/instances/instances.routes';
import { instanceSettingsRoutes } from './modules/instance-settings/instance-settings.routes';
import { managedListRoutes } from './modules/managed-lists/managed-lists.routes';
import { outboxRoutes } from './modules/outbox/outbox.routes';
import { createMailer, type Mailer } from './modules/outbox/outbox.service';
import { deliverMessage } from './modules/outbox/message-delivery.service';
import type { SmsSender, TwilioAccount } from './modules/outbox/providers';
import { jobQueues, startJobQueue } from './jobs/job-queue';
import { withClinics } from './db/tenancy';
import { EventHub } from './modules/events/event-hub';
import { patientDashboardRoutes } from './modules/patient-dashboard/patient-dashboard.routes';
import { patientLinkRoutes } from './modules/patient-links/patient-links.routes';
import { patientRoutes } from './modules/patients/patients.routes';
import { perioperativeRoutes } from './modules/perioperative/perioperative.routes';
import { sessionRoutes } from './modules/session/session.routes';
import { userRoutes } from './modules/users/users.routes';
import { userMessageRoutes } from './modules/user-messages/user-messages.routes';
import { communicationRoutes } from './modules/communications/communications.routes';
import { notificationRoutes } from './modules/notifications/notifications.routes';
import { eventRoutes } from './modules/events/events.routes';
import { smsWebhookRoutes } from './modules/outbox/sms-webhooks.routes';
import { inboundTextRoutes } from './modules/patient-contact/inbound-texts.routes';
import { supportRoutes } from './modules/communications/support.routes';
import { intakeRoutes } from './modules/intake/intake.routes';
import { closeAccountRoutes } from './modules/intake/close-account.routes';
import { consentLinkRoutes } from './modules/intake/consent-links.routes';
import { INTAKE_SWEEP_CRON, sendDueIntakes } from './modules/intake/intake-auto-send';
import { PATHWAY_SWEEP_CRON, runDuePathwaySteps } from './modules/pathways/pathway-runner';
import { CAMPAIGN_SWEEP_CRON, runCampaignSends } from './modules/outreach/campaign-sender';
import { campaignRoutes } from './modules/outreach/campaigns.routes';
import { shortLinkRoutes } from './modules/outreach/short-links.routes';
import { pathwayRoutes } from './modules/pathways/pathways.routes';
import { legalRoutes } from './modules/legal/legal.routes';
import { interventionRoutes } from './modules/interventions/interventions.routes';
import { authPlugin } from './plugins/auth';
import { errorsPlugin } from './plugins/errors';
import { inputChecksPlugin } from './plugins/input-checks';
import { openApiPlugin } from './plugins/openapi';
import { securityPlugin } from './plugins/security';
import { webPlugin } from './plugins/web';
import { procedureNoteRoutes } from './modules/procedure-notes/procedure-notes.routes';
import { painJournalRoutes } from './modules/pain-journal/pain-journal.routes';
import { spotlightReportRoutes } from './modules/reports/spotlight.routes';
import { referralTrackerRoutes } from './modules/reports/referrals.routes';
import { providerBaselineRoutes } from './modules/reports/provider-baselines.routes';
import { surveyReportRoutes } from './modules/reports/survey.routes';
import { officeVisitsRoutes } from './modules/reports/office-visits.routes';
import { performanceReportRoutes } from './modules/reports/performance.routes';
import { summaryReportRoutes } from './modules/reports/summary.routes';
import { patientMedicineRoutes } from './modules/medicines/patient-medicines.routes';
import { codeGroupRoutes } from './modules/outreach/code-groups.routes';
import { encounterImportRoutes } from './modules/outreach/encounter-imports.routes';
import { appointmentCodeRoutes } from './modules/outreach/appointment-codes.routes';
import type { EncounterImportJob } from './modules/outreach/encounter-imports.service';
import { runEncounterImport } from './modules/outreach/encounter-import-job';
import { hotlistRoutes } from './modules/outreach/hotlists.routes';
import { audienceTemplateRoutes } from './modules/outreach/audience-templates.routes';

interface BuildOptions {
  config: Config;
  database: DatabaseHandle;
  /** A read replica for report routes (`READ_DATABASE_URL`); reports read `database` without one. */
  readDatabase?: DatabaseHandle;
  mailer?: Mailer;
  /** Replaces the Twilio SDK sender (tests that count sends). */
  smsSender?: (account: TwilioAccount) => SmsSender;
  logger?: boolean;
  /** Where logs go instead of stdout (tests read them to prove secrets are redacted). */
  logStream?: NodeJS.WritableStream;
  /** Extra routes registered with the others (tests use it to exercise guards on a throwaway route). */
  routes?: (app: FastifyInstance) => Promise<void>;
}

export async function buildApp({
  config,
  database,
  readDatabase,
  mailer,
  smsSender,
  logger = true,
  logStream,
  routes,
}: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger && {
      level: config.logLevel,
      ...(logStream ? { stream: logStream } : {}),
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          '*.password',
          '*.newPassword',
          '*.currentPassword',
          '*.token',
          '*.code',
        ],
        censor: '[redacted]',
      },
      // Patient-link tokens travel in the URL (the {id} of the section 2 routes): logs keep the path, never the token.
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactLinkTokens(request.url),
          host: request.host,
          remoteAddress: request.ip,
        }),
      },
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  registerFactListeners();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorsPlugin);
  await app.register(inputChecksPlugin);
  await app.register(securityPlugin);
  await app.register(openApiPlugin);
  const messenger = mailer ?? createMailer(config.smtpUrl, config.mailFrom);
  const jobs = await startJobQueue(database, {
    pollingIntervalSeconds: config.jobs.pollSeconds,
    retryDelaySeconds: config.jobs.retryDelaySeconds,
    retryLimit: config.jobs.retryLimit,
    schedules: config.intakeAutoSend,
  });
  const events = new EventHub(database);
  await events.start();
  app.decorate('jobs', jobs);
  app.decorate('events', events);
  app.addHook('onClose', async () => {
    await jobs.stop();
    await events.stop();
  });
  await jobs.work<{ messageId: string }>(jobQueues.deliverMessage, (data, job) =>
    deliverMessage({ root: database.db, config, mailer: messenger, smsSender }, data.messageId, job),
  );
  await jobs.work(jobQueues.intakeSweep, async () => {
    await sendDueIntakes(database.db, { config, mailer: messenger, jobs, events });
  });
  if (config.intakeAutoSend) {
    await jobs.schedule(jobQueues.intakeSweep, INTAKE_SWEEP_CRON);
    // A first sweep now, so links due since the server last ran do not wait for the next tick.
    await withClinics(database.db, [], (tx) => jobs.enqueue(tx, jobQueues.intakeSweep, {}));
  } else {
    await jobs.unschedule(jobQueues.intakeSweep);
  }
  await jobs.work(jobQueues.pathwaySweep, async () => {
    await runDuePathwaySteps(database.db, { config, mailer: messenger, jobs, events });
  });
  // Care-pathway steps (decision 0041) run on the same switch as the intake sweep: off in the API tests.
  if (config.intakeAutoSend) {
    await jobs.schedule(jobQueues.pathwaySweep, PATHWAY_SWEEP_CRON);
  } else {
    await jobs.unschedule(jobQueues.pathwaySweep);
  }
  await jobs.work(jobQueues.campaignSweep, async () => {
    await runCampaignSends(database.db, { config, mailer: messenger, jobs });
  });
  // Campaign sends (decision 0051): every minute, on the same switch as the intake and pathway sweeps.
  if (config.intakeAutoSend) await jobs.schedule(jobQueues.campaignSweep, CAMPAIGN_SWEEP_CRON);
  else await jobs.unschedule(jobQueues.campaignSweep);
  // Encounter CSV imports (decision 0050): one job per uploaded file, run as the file's clinic.
  await jobs.work<EncounterImportJob>(jobQueues.encounterImport, (data) => runEncounterImport(database.db, config, data));
  await app.register(authPlugin, { db: database.db, readDb: readDatabase?.db, config, mailer: messenger, jobs, events });

  await app.register(healthRoutes, { databaseKind: database.kind });
  await app.register(authRoutes);
  await app.register(sessionRoutes);
  await app.register(outboxRoutes);
  await app.register(inboundTextRoutes);
  await app.register(instanceSettingsRoutes);
  await app.register(userRoutes);
  await app.register(instanceRoutes);
  await app.register(activityRoutes);
  await app.register(adminDashboardRoutes);
  await app.register(managedListRoutes);
  await app.register(perioperativeRoutes);
  await app.register(enumRoutes);
  await app.register(appointmentRoutes);
  await app.register(patientRoutes);
  await app.register(patientDashboardRoutes);
  await app.register(customFormRoutes);
  await app.register(patientLinkRoutes);
  await app.register(interventionRoutes);
  await app.register(formResponseRoutes);
  await app.register(criticalFindingRoutes);
  await app.register(fhirRoutes);
  await app.register(userMessageRoutes);
  await app.register(communicationRoutes);
  await app.register(notificationRoutes);
  await app.register(eventRoutes);
  await app.register(smsWebhookRoutes);
  await app.register(supportRoutes);
  await app.register(intakeRoutes);
  await app.register(closeAccountRoutes);
  await app.register(consentLinkRoutes);
  await app.register(pathwayRoutes);
  await app.register(legalRoutes);
  await app.register(procedureNoteRoutes);
  await app.register(painJournalRoutes);
  await app.register(spotlightReportRoutes);
  await app.register(referralTrackerRoutes);
  await app.register(providerBaselineRoutes);
  await app.register(surveyReportRoutes);
  await app.register(officeVisitsRoutes);
  await app.register(performanceReportRoutes);
  await app.register(summaryReportRoutes);
  await app.register(patientMedicineRoutes);
  await app.register(campaignRoutes);
  await app.register(shortLinkRoutes);
  await app.register(codeGroupRoutes);
  await app.register(encounterImportRoutes);
  await app.register(appointmentCodeRoutes);
  await app.register(hotlistRoutes);
  await app.register(audienceTemplateRoutes);
  if (routes) await app.register(routes);

  await app.register(webPlugin, { webDist: config.webDist });
  return app;
}
