import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ErrorBody } from '@pathwell/contracts/errors';
import { instrumentSlugs } from '@pathwell/contracts/patient-links';

/**
 * Patient link pages of section 2, served by the small patient bundle (patient.html) instead of the
 * staff app: /patients/{instrument slug}/{token}/{appointmentId?} and /customform/{token}/surveryform.
 */
const patientPagePattern = new RegExp(
  `^/(?:patients/(?:${Object.values(instrumentSlugs).join('|')})/[^/]+(?:/[^/]+)?|customform/[^/]+/surveryform` +
    // Intake (decision 0032): the staff app keeps /patients/appointmentdashboard without a token.
    `|patients/intake/[^/]+(?:/[^/]+)?|patients/appointmentdashboard/[A-Za-z0-9_-]{43}(?:/[^/]+){0,2}|patients/intake(?:complete|notavailable)|(?:home)?checkincomplete|thankyou|exit` +
    // Single intake steps of section 2: the patient bundle says to open the intake link (decision 0032).
    `|newpatientpaperwork(?:drchorono)?(?:/[^/]+)?|clinical/healthhistoryform` +
    `|patients/[^/]+/appointments/[^/]+/(?:healthhistoryforms(?:/[^/]+)?|customscreeners)` +
    `|patients/[^/]+/(?:clientinfo|payment)/[^/]+|patients/[^/]+/clientenquiry/[^/]+/client-enquiry` +
    `|patients/[0-9a-fA-F-]{36}/appointments/[0-9a-fA-F-]{36}/patient-checkin` +
    // Decision 0036: the emailed close-account confirmation, and consents signed on their own.
    `|patients/closeaccount/[0-9a-fA-F-]{36}/[A-Za-z0-9_-]{43}|patients/(?:digitalconsentform|resignconsent)/[A-Za-z0-9_-]{43}` +
    // Decision 0042: the pain journal between visits.
    `|periodicvas/[0-9a-fA-F-]{36}/[A-Za-z0-9_-]{43})/?$`,
  'i',
);

export function isPatientPagePath(url: string): boolean {
  return patientPagePattern.test(url.split(/[?#]/, 1)[0] ?? '');
}

/**
 * Serves the built web app from the same port as the API. Hashed assets may be cached for a year;
 * index.html never is, so a deploy reaches every browser on its next load. Unknown non-API paths get
 * index.html and the web router shows its own 404 page; patient link paths get patient.html.
 */
export const webPlugin = fp(async (app: FastifyInstance, options: { webDist: string }) => {
  const hasWeb = existsSync(path.join(options.webDist, 'index.html'));
  const hasPatientPage = existsSync(path.join(options.webDist, 'patient.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: options.webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset (vite.config.ts); the best one the browser accepts is sent.
      preCompressed: true,
      setHeaders(res, filePath) {
        res.header(
          'Cache-Control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET' || !hasWeb) {
      return reply.status(404).send({ error: 'Not found', code: 'NOT_FOUND', messageKey: 'notFound' } satisfies ErrorBody);
    }
    const page = hasPatientPage && isPatientPagePath(request.url) ? 'patient.html' : 'index.html';
    return reply.header('Cache-Control', 'no-cache').type('text/html').sendFile(page);
  });
});
