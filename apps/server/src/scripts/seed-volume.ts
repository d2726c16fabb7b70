import { parseArgs } from 'node:util';
import { seedVolume } from '../db/seed/volume';

/**
 * `npm run seed:volume -- --patients 1000000 --appointments 5000000 --clinics 100 [--responses N --interventions N --coded-visits N]`: fills the PostgreSQL
 * database of DATABASE_URL for `npm run bench` (docs/decisions/0015-demo-and-volume-data.md).
 */
const { values } = parseArgs({
  options: {
    patients: { type: 'string', default: '1000000' },
    appointments: { type: 'string', default: '5000000' },
    clinics: { type: 'string', default: '100' },
    responses: { type: 'string', default: '0' },
    interventions: { type: 'string', default: '0' },
    'coded-visits': { type: 'string', default: '0' },
    batch: { type: 'string', default: '50000' },
  },
});
const number = (name: string, text: string | undefined, min: number) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number of at least ${min}`);
  return value;
};

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error(
    'seed:volume writes to a PostgreSQL server: set DATABASE_URL (for example postgres://postgres@127.0.0.1:5432/pathwell_volume). ' +
      'It refuses the embedded PGlite, which is meant for the demo and the tests, not for millions of rows.',
  );
  process.exit(1);
}
const options = {
  databaseUrl,
  patients: number('patients', values.patients, 0),
  appointments: number('appointments', values.appointments, 0),
  clinics: number('clinics', values.clinics, 1),
  responses: number('responses', values.responses, 0),
  interventions: number('interventions', values.interventions, 0),
  codedVisits: number('coded-visits', values['coded-visits'], 0),
  batchSize: number('batch', values.batch, 1),
};
console.log(
  `Seeding ${options.clinics} clinics, ${options.patients.toLocaleString('en-US')} patients, ${options.appointments.toLocaleString('en-US')} appointments, ${options.responses.toLocaleString('en-US')} form responses, ${options.interventions.toLocaleString('en-US')} interventions, ${options.codedVisits.toLocaleString('en-US')} coded visits…`,
);
const started = performance.now();
const result = await seedVolume({ ...options, log: (line) => console.log(line) });
const total = (performance.now() - started) / 1000;
const rate = (rows: number, seconds: number) => Math.round(rows / Math.max(seconds, 0.001)).toLocaleString('en-US');
console.log(
  [
    `Done in ${total.toFixed(1)} s.`,
    `patients:     ${result.rows.patients.toLocaleString('en-US')} rows in ${result.seconds.patients.toFixed(1)} s (${rate(result.rows.patients, result.seconds.patients)} rows/s)`,
    `phones:       ${result.rows.phones.toLocaleString('en-US')} rows in ${result.seconds.phones.toFixed(1)} s (${rate(result.rows.phones, result.seconds.phones)} rows/s)`,
    `appointments: ${result.rows.appointments.toLocaleString('en-US')} rows in ${result.seconds.appointments.toFixed(1)} s (${rate(result.rows.appointments, result.seconds.appointments)} rows/s)`,
    `responses:    ${result.rows.responses.toLocaleString('en-US')} rows in ${result.seconds.responses.toFixed(1)} s (${rate(result.rows.responses, result.seconds.responses)} rows/s)`,
    `interventions: ${result.rows.interventions.toLocaleString('en-US')} rows in ${result.seconds.interventions.toFixed(1)} s (${rate(result.rows.interventions, result.seconds.interventions)} rows/s)`,
    `coded visits: ${result.rows.codedVisits.toLocaleString('en-US')} rows (${result.rows.visitCodes.toLocaleString('en-US')} codes) in ${result.seconds.codedVisits.toFixed(1)} s (${rate(result.rows.codedVisits, result.seconds.codedVisits)} rows/s)`,
    `analyze:      ${result.seconds.analyze.toFixed(1)} s`,
    `Sign in as staff.001@volume.pathwell.test (or admin./doctor1./doctor2.<NNN>) with the demo password.`,
  ].join('\n'),
);
