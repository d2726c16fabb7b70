import { createHash } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { FormLanguage } from '@pathwell/contracts/forms';
import type { Database } from '../../db/client';
import { instanceFiles } from '../../db/schema';
import { defaultAgreement } from './intake-documents';

/* The new-patient agreement as the patient is shown it: the clinic's uploaded file, and the version that is signed. */

export async function agreementFile(db: Database, instanceId: string, language: FormLanguage) {
  const keys = language === 'es' ? ['newPatientAgreementEs', 'newPatientAgreementEn'] : ['newPatientAgreementEn'];
  const files = await db
    .select({ fileKey: instanceFiles.fileKey, content: instanceFiles.content })
    .from(instanceFiles)
    .where(and(eq(instanceFiles.instanceId, instanceId), inArray(instanceFiles.fileKey, keys)));
  return keys.map((key) => files.find((file) => file.fileKey === key)).find(Boolean) ?? null;
}

/** The agreement's version: a hash of exactly what the patient was shown, in both languages and any file. */
export async function agreementVersion(db: Database, instanceId: string) {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(defaultAgreement));
  for (const language of ['en', 'es'] as const) {
    const file = await agreementFile(db, instanceId, language);
    if (file) hash.update(file.content);
  }
  return `sha256:${hash.digest('hex').slice(0, 16)}`;
}
