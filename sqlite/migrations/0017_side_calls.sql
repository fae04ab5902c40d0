-- A gateway session made of a client's one-shot side call (a title
-- request: kompact.GatewayRecord.SideCall), which the session list leaves
-- out unless asked for side calls; the first request that continues the
-- session clears it. Records written before this migration are none.
ALTER TABLE gateway_records ADD COLUMN side_call INTEGER NOT NULL DEFAULT 0;
