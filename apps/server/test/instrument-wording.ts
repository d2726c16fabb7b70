import { getInstrument, instrumentForm, type FormCode, type LicensedWording } from '@pathwell/instruments';
import type { Database } from '../src/db/client';
import { instrumentWordings } from '../src/db/schema';

/**
 * A stand-in for a clinic's imported licensed wording (decision 0020), for tests that send ODI, NDI,
 * PROMIS Global-10 or SOAPP-R: without one the clinic cannot give those forms (decision 0061). The
 * texts are placeholders of the test, never the licensed items.
 */
function testWording(formCode: FormCode): LicensedWording {
  const form = instrumentForm(formCode);
  return {
    formCode,
    source: `Test copy of ${getInstrument(formCode).name.en}`,
    languages: ['en'],
    questions: form.questions.map((question, index) => ({
      id: question.id,
      text: { en: `Test item ${index + 1}` },
      options: (question.options ?? []).map((option) => ({
        value: option.value as number,
        label: { en: `Test option ${String(option.value)}` },
      })),
    })),
  };
}

/** `importedAt`: when the clinic loaded it; answers given before then were on neutral labels. */
export async function importTestWording(db: Database, instanceId: string, formCode: FormCode, importedAt?: Date): Promise<void> {
  await db
    .insert(instrumentWordings)
    .values({ instanceId, formCode, definition: testWording(formCode), ...(importedAt ? { importedAt } : {}) })
    .onConflictDoNothing();
}
