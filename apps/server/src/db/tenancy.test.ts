import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestApp } from '../../test/test-app';
import type { Database } from './client';
import { patientNotes, patients } from './schema';
import { APP_ROLE, SYSTEM_ROLE, systemAccessReasons, withClinics, withSystemAccess } from './tenancy';

/** Tables that hold no clinic's data; any other table must carry instance_id and the policies. */
const NOT_TENANT_TABLES = ['instances', 'one_time_tokens', 'organisations', 'sessions', 'sign_in_failures'];

let t: TestApp;
let riverside: string;
let lakeside: string;

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

async function tenantTables(db: Database): Promise<string[]> {
  const found = await rows<{ table_name: string }>(
    db,
    sql`select c.table_name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = 'public' and c.column_name = 'instance_id' and t.table_type = 'BASE TABLE'
        order by 1`,
  );
  return found.map((row) => row.table_name);
}

const countByClinic = (db: Database, table: string) =>
  rows<{ instance_id: string | null; count: number }>(
    db,
    sql`select instance_id, count(*)::int as count from ${sql.identifier(table)} group by instance_id`,
  );

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      routes: async (app: FastifyInstance) => {
        // A handler that forgot its clinic filter on purpose: the database must still keep to the clinic.
        app.get('/api/test/every-patient', { config: { anyRole: true, allClinics: true } }, async (request) => {
          const found = await request.ctx.db.select({ instanceId: patients.instanceId }).from(patients);
          return { instanceIds: [...new Set(found.map((row) => row.instanceId))] };
        });
        app.post('/api/test/write-then-fail', { config: { anyRole: true } }, async (request) => {
          const [patient] = await request.ctx.db.select({ id: patients.id }).from(patients).limit(1);
          await request.ctx.db
            .insert(patientNotes)
            .values({ instanceId: request.ctx.instanceId!, patientId: patient!.id, body: 'written before a crash' });
          throw new Error('unexpected failure after a write');
        });
      },
    },
  );
  const clinics = await rows<{ id: string; name: string }>(t.db, sql`select id, name from instances order by name`);
  lakeside = clinics.find((clinic) => clinic.name.startsWith('Lakeside'))!.id;
  riverside = clinics.find((clinic) => clinic.name.startsWith('Riverside'))!.id;
});
afterAll(async () => {
  await t?.close();
});

describe('row-level security on every tenant table', () => {
  it('finds the tenant tables from the schema, and every other table is named as holding no clinic data', async () => {
    const tenant = await tenantTables(t.db);
    expect(tenant.length).toBeGreaterThanOrEqual(20);
    const all = await rows<{ table_name: string }>(
      t.db,
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    const unclassified = all
      .map((row) => row.table_name)
      .filter((name) => !tenant.includes(name) && !NOT_TENANT_TABLES.includes(name));
    expect(unclassified).toEqual([]);
  });

  it('enables and forces row-level security with a policy for the app role and the system role on each', async () => {
    const tenant = await tenantTables(t.db);
    const flags = await rows<{ relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean }>(
      t.db,
      sql`select relname, relrowsecurity, relforcerowsecurity from pg_class
          where relnamespace = 'public'::regnamespace and relkind = 'r'`,
    );
    const policies = await rows<{ tablename: string; roles: string[] | string }>(
      t.db,
      sql`select tablename, roles from pg_policies where schemaname = 'public'`,
    );
    const rolesOf = (table: string) =>
      policies
        .filter((policy) => policy.tablename === table)
        .flatMap((policy) => (Array.isArray(policy.roles) ? policy.roles : policy.roles.replace(/[{}]/g, '').split(',')));
    const missing = tenant.filter((table) => {
      const flag = flags.find((row) => row.relname === table);
      const roles = rolesOf(table);
      return !flag?.relrowsecurity || !flag.relforcerowsecurity || !roles.includes(APP_ROLE) || !roles.includes(SYSTEM_ROLE);
    });
    expect(missing).toEqual([]);
  });

  it('shows the app role no row of any tenant table when no clinic is set', async () => {
    const tenant = await tenantTables(t.db);
    const seen = await withClinics(t.db, [], async (tx) => {
      const counts: Record<string, number> = {};
      for (const table of tenant) counts[table] = (await countByClinic(tx, table)).reduce((sum, row) => sum + row.count, 0);
      return counts;
    });
    expect(Object.values(seen).some((count) => count > 0) ? seen : {}).toEqual({});
    // The demo holds rows in most of them, so the zeros above are the policy's doing.
    const stored = await withSystemAccess(t.db, 'audit-verify', async (tx) => {
      let total = 0;
      for (const table of tenant) total += (await countByClinic(tx, table)).reduce((sum, row) => sum + row.count, 0);
      return total;
    });
    expect(stored).toBeGreaterThan(1000);
  });

  it('with Riverside set, returns every Riverside row and no Lakeside row from any table', async () => {
    const tenant = await tenantTables(t.db);
    const everything = await withSystemAccess(t.db, 'audit-verify', async (tx) => {
      const byTable: Record<string, Awaited<ReturnType<typeof countByClinic>>> = {};
      for (const table of tenant) byTable[table] = await countByClinic(tx, table);
      return byTable;
    });
    const asRiverside = await withClinics(t.db, [riverside], async (tx) => {
      const byTable: Record<string, Awaited<ReturnType<typeof countByClinic>>> = {};
      for (const table of tenant) byTable[table] = await countByClinic(tx, table);
      return byTable;
    });
    let lakesideRowsStored = 0;
    for (const table of tenant) {
      expect(
        asRiverside[table]!.filter((row) => row.instance_id !== riverside && table !== 'users'),
        table,
      ).toEqual([]);
      const riversideStored = everything[table]!.find((row) => row.instance_id === riverside)?.count ?? 0;
      const riversideSeen = asRiverside[table]!.find((row) => row.instance_id === riverside)?.count ?? 0;
      expect(riversideSeen, table).toBe(riversideStored);
      lakesideRowsStored += everything[table]!.find((row) => row.instance_id === lakeside)?.count ?? 0;
    }
    expect(lakesideRowsStored).toBeGreaterThan(100);
  });

  it('shows staff accounts of other clinics only when they are members of the clinic set (parent users)', async () => {
    const seen = await withClinics(t.db, [lakeside], (tx) =>
      rows<{ email: string }>(tx, sql`select email from users order by email`),
    );
    const emails = seen.map((row) => row.email);
    expect(emails).toContain('admin2@pathwell.demo');
    expect(emails).toContain('parent@pathwell.demo');
    expect(emails).not.toContain('admin@pathwell.demo');
    expect(emails).not.toContain('manager@pathwell.demo');
  });

  it('refuses to write a row into a clinic other than the one set', async () => {
    const [patient] = await withClinics(t.db, [lakeside], (tx) => tx.select({ id: patients.id }).from(patients).limit(1));
    const databaseMessage = (error: unknown) => String((error as { cause?: unknown }).cause ?? error);
    const inserted = await withClinics(t.db, [riverside], (tx) =>
      tx.insert(patientNotes).values({ instanceId: lakeside, patientId: patient!.id, body: 'cross-clinic note' }),
    ).catch((error: unknown) => error);
    expect(databaseMessage(inserted)).toMatch(/row-level security/);
    const moved = await withClinics(t.db, [riverside], (tx) =>
      tx
        .update(patients)
        .set({ instanceId: lakeside })
        .where(sql`true`)
        .returning({ id: patients.id }),
    ).catch((error: unknown) => error);
    expect(databaseMessage(moved)).toMatch(/row-level security/);
  });
});

/** Tables whose rows are not one clinic's: an account may work in several clinics (user_instances). */
const CROSS_CLINIC_PARENTS = ['users'];

describe('references between clinic tables carry the clinic', () => {
  it('every foreign key from a clinic table to another clinic table includes instance_id on both sides', async () => {
    const tenant = await tenantTables(t.db);
    const keys = await rows<{ name: string; child: string; parent: string; child_first: string; parent_first: string }>(
      t.db,
      sql`select c.conname as name, c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent,
                 (select a.attname::text from pg_attribute a where a.attrelid = c.conrelid and a.attnum = c.conkey[1])
                   as child_first,
                 (select a.attname::text from pg_attribute a where a.attrelid = c.confrelid and a.attnum = c.confkey[1])
                   as parent_first
          from pg_constraint c where c.contype = 'f' and c.connamespace = 'public'::regnamespace`,
    );
    const betweenClinicTables = keys.filter(
      (key) => tenant.includes(key.child) && tenant.includes(key.parent) && !CROSS_CLINIC_PARENTS.includes(key.parent),
    );
    expect(betweenClinicTables.length).toBeGreaterThanOrEqual(20);
    const single = betweenClinicTables.filter((key) => key.child_first !== 'instance_id' || key.parent_first !== 'instance_id');
    expect(single.map((key) => key.name)).toEqual([]);
  });

  it('refuses a Lakeside appointment, link or response that points at a Riverside patient, even for the owner', async () => {
    const [riversidePatient] = await rows<{ id: string }>(
      t.db,
      sql`select id from patients where instance_id = ${riverside} limit 1`,
    );
    const attempts = [
      sql`insert into appointments (instance_id, patient_id, starts_at) values (${lakeside}, ${riversidePatient!.id}, now())`,
      sql`insert into patient_links (instance_id, patient_id, form_code, token_hash, expires_at)
          values (${lakeside}, ${riversidePatient!.id}, 1, 'cross-clinic-test', now())`,
      sql`insert into patient_notes (instance_id, patient_id, body) values (${lakeside}, ${riversidePatient!.id}, 'x')`,
    ];
    for (const attempt of attempts) {
      const failure = await t.db.execute(attempt).then(
        () => null,
        (error: unknown) => error as { code?: string; cause?: { code?: string } },
      );
      expect(failure?.code ?? failure?.cause?.code).toBe('23503');
    }
    const [sameClinic] = await rows<{ id: string }>(
      t.db,
      sql`insert into patient_notes (instance_id, patient_id, body) values (${riverside}, ${riversidePatient!.id}, 'same clinic')
          returning id`,
    );
    expect(sameClinic?.id).toBeTruthy();
    await t.db.execute(sql`delete from patient_notes where id = ${sameClinic!.id}`);
  });

  it('keeps external ids unique within a clinic, and lets two clinics use the same one', async () => {
    const [first, second] = await rows<{ id: string }>(
      t.db,
      sql`select id from patients where instance_id = ${riverside} order by id limit 2`,
    );
    const [other] = await rows<{ id: string }>(t.db, sql`select id from patients where instance_id = ${lakeside} limit 1`);
    await t.db.execute(sql`update patients set external_id = 'EHR-4711' where id in (${first!.id}, ${other!.id})`);
    const clash = await t.db.execute(sql`update patients set external_id = 'EHR-4711' where id = ${second!.id}`).then(
      () => null,
      (error: unknown) => error as { code?: string; cause?: { code?: string } },
    );
    expect(clash?.code ?? clash?.cause?.code).toBe('23505');
    await t.db.execute(sql`update patients set external_id = null where external_id = 'EHR-4711'`);
  });
});

describe('indexes under row-level security', () => {
  it('marks lower() and LIKE leakproof, so the patient search and email lookups keep their indexes for the app role', async () => {
    const marked = await rows<{ fn: string; proleakproof: boolean }>(
      t.db,
      sql`select oid::regprocedure::text as fn, proleakproof from pg_proc
          where oid in ('lower(text)'::regprocedure, 'textlike(text,text)'::regprocedure,
                        'texticlike(text,text)'::regprocedure, 'textnlike(text,text)'::regprocedure)
          order by 1`,
    );
    expect(marked).toEqual([
      { fn: 'lower(text)', proleakproof: true },
      { fn: 'texticlike(text,text)', proleakproof: true },
      { fn: 'textlike(text,text)', proleakproof: true },
      { fn: 'textnlike(text,text)', proleakproof: true },
    ]);
  });
});

describe("the app's own connection", () => {
  it.runIf(process.env.DATABASE_URL)(
    'is a login that owns nothing, is no superuser and reads nothing outside a transaction',
    async () => {
      const [login] = await rows<{ rolsuper: boolean; rolinherit: boolean; rolbypassrls: boolean; owned: number }>(
        t.appDb,
        sql`select rolsuper, rolinherit, rolbypassrls,
            (select count(*)::int from pg_class where relowner = r.oid) as owned
          from pg_roles r where rolname = current_user`,
      );
      expect(login).toEqual({ rolsuper: false, rolinherit: false, rolbypassrls: false, owned: 0 });
      const bare = await t.appDb.execute(sql`select count(*) from patients`).catch((error: unknown) => error);
      expect(String((bare as { cause?: unknown }).cause ?? bare)).toMatch(/permission denied/);
    },
  );
});

describe('requests run in one transaction narrowed to the signed-in clinic', () => {
  it('a handler that forgets its clinic filter still sees only its own clinic', async () => {
    const admin = await signIn(t.app, 'admin2@pathwell.demo');
    const response = await t.app.inject({ method: 'GET', url: '/api/test/every-patient', headers: admin.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ instanceIds: [lakeside] });
  });

  it("a parent user's all-clinics view sees both of their clinics, one clinic when they pick one", async () => {
    const parent = await signIn(t.app, 'parent@pathwell.demo');
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/test/every-patient',
      headers: { ...parent.headers, clinicid: 'all' },
    });
    expect((all.json() as { instanceIds: string[] }).instanceIds.sort()).toEqual([lakeside, riverside].sort());
    const one = await t.app.inject({
      method: 'GET',
      url: '/api/test/every-patient',
      headers: { ...parent.headers, clinicid: lakeside },
    });
    expect(one.json()).toEqual({ instanceIds: [lakeside] });
  });

  it('an unexpected failure rolls back what the request wrote before it', async () => {
    const staff = await signIn(t.app, 'staff@pathwell.demo');
    const countNotes = () =>
      withSystemAccess(
        t.db,
        'audit-verify',
        async (tx) => (await rows<{ n: number }>(tx, sql`select count(*)::int as n from patient_notes`))[0]!.n,
      );
    const before = await countNotes();
    const response = await t.app.inject({ method: 'POST', url: '/api/test/write-then-fail', headers: staff.headers });
    expect(response.statusCode).toBe(500);
    expect(await countNotes()).toBe(before);
  });

  it('the connection is back to its own role once a request has finished', async () => {
    const staff = await signIn(t.app, 'staff@pathwell.demo');
    await t.app.inject({ method: 'GET', url: '/api/test/every-patient', headers: staff.headers });
    const [who] = await rows<{ role: string; ids: string | null }>(
      t.db,
      sql`select current_user as role, current_setting('pathwell.instance_ids', true) as ids`,
    );
    expect(who!.role).not.toBe(APP_ROLE);
    expect(who!.ids ?? '').toBe('');
  });
});

describe('the door across clinics', () => {
  const serverSrc = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const sourceFiles = (folder: string): string[] =>
    readdirSync(folder).flatMap((name) => {
      const full = path.join(folder, name);
      if (statSync(full).isDirectory()) return sourceFiles(full);
      return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
    });

  it('is used only for its named reasons, at the places reviewed for it', () => {
    const uses: string[] = [];
    for (const file of sourceFiles(serverSrc)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/'([a-z-]+)'/g)) {
        if (
          (systemAccessReasons as readonly string[]).includes(match[1]!) &&
          /withSystem|openRequestTransaction|afterCommit|reason:/.test(text)
        )
          uses.push(`${path.relative(serverSrc, file)}: ${match[1]}`);
      }
    }
    expect([...new Set(uses)].sort()).toEqual([
      'db/tenancy.ts: audit-verify',
      'db/tenancy.ts: bootstrap',
      'db/tenancy.ts: campaign-short-link',
      'db/tenancy.ts: campaign-sweep',
      'db/tenancy.ts: clinic-administration',
      'db/tenancy.ts: health',
      'db/tenancy.ts: intake-auto-send',
      'db/tenancy.ts: outbox-delivery',
      'db/tenancy.ts: pathway-sweep',
      'db/tenancy.ts: patient-link-token',
      'db/tenancy.ts: self-check-in',
      'db/tenancy.ts: session-lookup',
      'db/tenancy.ts: staff-account',
      'db/tenancy.ts: staff-memberships',
      'db/tenancy.ts: system-manager',
      'modules/auth/auth.routes.ts: staff-account',
      'modules/health/health.routes.ts: health',
      'modules/instances/instances.routes.ts: clinic-administration',
      'modules/intake/intake-auto-send.ts: intake-auto-send',
      'modules/intake/self-check-in.service.ts: self-check-in',
      'modules/outbox/message-delivery.service.ts: outbox-delivery',
      'modules/outbox/outbox.routes.ts: system-manager',
      'modules/outreach/campaign-responses.ts: campaign-short-link',
      'modules/outreach/campaign-sender.ts: campaign-sweep',
      'modules/pathways/pathway-runner.ts: pathway-sweep',
      'modules/patient-contact/link-access.service.ts: patient-link-token',
      'modules/session/session.routes.ts: staff-memberships',
      'modules/users/users.routes.ts: staff-memberships',
      'modules/users/users.service.ts: staff-account',
      'plugins/auth.ts: session-lookup',
      'prepare.ts: bootstrap',
      'scripts/audit-verify.ts: audit-verify',
    ]);
  });
});
