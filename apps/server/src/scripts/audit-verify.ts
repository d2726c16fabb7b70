import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { withSystemAccess } from '../db/tenancy';
import { verifyActivityChain } from '../modules/audit/audit.service';

/** `npm run audit:verify`: checks the activity log's hash chains on the configured database. */
const config = loadConfig();
const handle = await openDatabase(
  config.databaseUrl ? { kind: 'postgresql', url: config.databaseUrl } : { kind: 'pglite', dataDir: `${config.dataDir}/pglite` },
);
try {
  const { checked, firstBreak } = await withSystemAccess(handle.db, 'audit-verify', verifyActivityChain);
  if (firstBreak) {
    console.error(
      `Activity log chain BROKEN at row ${firstBreak.id} (clinic ${firstBreak.instanceId ?? 'none'}, position ${firstBreak.chainSeq}): ${firstBreak.reason}. ${checked} rows checked.`,
    );
    process.exitCode = 1;
  } else {
    console.log(`Activity log chain intact: ${checked} rows checked.`);
  }
} finally {
  await handle.close();
}
