-- The chain a gateway record's session holds (see
-- sqlite/migrations/0011_gateway_chains.sql). A state that is not JSON
-- keeps the empty chain.
ALTER TABLE gateway_records ADD COLUMN chain text NOT NULL DEFAULT '';

DO $$
DECLARE r record;
BEGIN
    FOR r IN SELECT session_id, state FROM gateway_records LOOP
        BEGIN
            UPDATE gateway_records SET chain = coalesce(convert_from(r.state, 'UTF8')::jsonb ->> 'client_chain', '')
                WHERE session_id = r.session_id;
        EXCEPTION WHEN others THEN
            NULL;
        END;
    END LOOP;
END
$$;

CREATE INDEX gateway_records_by_chain ON gateway_records (conv_key, chain, ord);
