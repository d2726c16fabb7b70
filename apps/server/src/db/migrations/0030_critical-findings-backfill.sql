-- Critical findings for responses stored before migration 0025 (decision 0058, addendum of 2026-11-28).
-- The clinic tables force row-level security on their owner too, so a migrating role that is not a superuser
-- would read no response here and silently backfill nothing. The backfill therefore runs as pathwell_system
-- (migration 0010 made the migrating role a member) and returns to the migrating role right after: drizzle
-- runs every pending migration in one transaction, and later ones must run as the owner again.
SET LOCAL ROLE pathwell_system;
--> statement-breakpoint
-- The rules of the instruments package (`criticalItems`) as of this migration: PHQ-9 (form code 11) item q9
-- answered 1 or more. As `criticalFindingsOf` does, only a numeric answer counts (an unanswered item never
-- does) and the finding keeps the answer the patient gave. The finding is dated when the response was
-- submitted. ON CONFLICT on (instance, response, rule) makes it idempotent: a response that already has its
-- finding (submitted since 0025, or the demo seed's) is left as it is, acknowledged or not.
-- Only the findings this statement creates are notified, and only those answered in the last 14 days
-- (the PHQ-9 asks about the last two weeks): one `criticalFinding` notification per response, as a new
-- submission raises, for the patient's Doctor and the clinic's Admins. Older answers are flagged red but not
-- pushed to the bell.
WITH answered AS (
  SELECT r.instance_id, r.id AS response_id, r.patient_id, r.appointment_id, r.form_code, r.submitted_at,
    CASE WHEN jsonb_typeof(r.answers -> 'q9') = 'number' THEN (r.answers ->> 'q9')::numeric END AS answer
  FROM form_responses r
  WHERE r.form_code = 11
),
found AS (
  INSERT INTO critical_findings (instance_id, response_id, patient_id, appointment_id, form_code, rule_key, item_id, answer, created_at)
  SELECT instance_id, response_id, patient_id, appointment_id, form_code, 'phq9-item9', 'q9', answer::smallint, submitted_at
  FROM answered
  WHERE answer >= 1 AND answer <= 32767
  ON CONFLICT (instance_id, response_id, rule_key) DO NOTHING
  RETURNING instance_id, response_id, patient_id, created_at
)
INSERT INTO notifications (instance_id, kind, patient_id, appointment_id, response_id)
SELECT DISTINCT found.instance_id, 'criticalFinding', found.patient_id, NULL::uuid, found.response_id
FROM found
WHERE found.created_at >= now() - interval '14 days'
  AND NOT EXISTS (
    SELECT 1 FROM notifications n
    WHERE n.instance_id = found.instance_id AND n.response_id = found.response_id AND n.kind = 'criticalFinding'
  );
--> statement-breakpoint
RESET ROLE;
