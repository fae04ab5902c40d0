-- The chain of the client's messages a gateway record's session holds
-- (kompact.GatewayRecord.Chain, the state's client_chain): the gateway
-- finds the session a request continues by its key and this chain, however
-- many sessions share the key (issue 29). Records written before it get
-- the chain their state holds.
ALTER TABLE gateway_records ADD COLUMN chain TEXT NOT NULL DEFAULT '';

UPDATE gateway_records SET chain = CASE WHEN json_valid(CAST(state AS TEXT)) THEN
        CASE WHEN json_type(CAST(state AS TEXT), '$.client_chain') = 'text'
            THEN json_extract(CAST(state AS TEXT), '$.client_chain') ELSE '' END
    ELSE '' END;

CREATE INDEX gateway_records_by_chain ON gateway_records (conv_key, chain, ord);
