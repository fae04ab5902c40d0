package httpapi

import (
	"context"

	"kompact"
)

// This file passes the gateway's store calls through the metrics wrapper, so
// that the gateway's sessions count as every other's. The wrapper has the
// gateway's role only when the store it wraps has it (measure).

// measuredGatewayStore is measuredStore over a store that keeps gateway
// sessions (kompact.GatewayStore).
type measuredGatewayStore struct {
	measuredStore
	gs kompact.GatewayStore
}

var _ kompact.GatewayStore = measuredGatewayStore{}

// measure wraps st in the metrics wrapper, claiming the roles st has: a
// store that keeps no gateway sessions stays one that keeps none.
func measure(st kompact.Store, m *metrics) kompact.Store {
	ms := measuredStore{st: st, m: m}
	if gs, ok := st.(kompact.GatewayStore); ok {
		return measuredGatewayStore{measuredStore: ms, gs: gs}
	}
	return ms
}

func (s measuredGatewayStore) CreateGatewaySession(ctx context.Context, in *kompact.Session, r kompact.GatewayRecord) (*kompact.SessionInfo, error) {
	out, err := s.gs.CreateGatewaySession(ctx, in, r)
	s.m.storeFailed("create_gateway_session", err)
	if err == nil {
		s.m.appended.Add(float64(len(in.Messages)))
	}
	return out, err
}

func (s measuredGatewayStore) GetGatewayRecord(ctx context.Context, id string) (*kompact.GatewayRecord, error) {
	out, err := s.gs.GetGatewayRecord(ctx, id)
	s.m.storeFailed("get_gateway_record", err)
	return out, err
}

func (s measuredGatewayStore) FindGatewayRecords(ctx context.Context, key string, chains []string, limit int) ([]kompact.GatewayRecord, error) {
	out, err := s.gs.FindGatewayRecords(ctx, key, chains, limit)
	s.m.storeFailed("find_gateway_records", err)
	return out, err
}

func (s measuredGatewayStore) SwapGatewayRecord(ctx context.Context, id string, seq int64, u kompact.GatewayUpdate, msgs []kompact.Message) (*kompact.GatewayRecord, *kompact.Appended, error) {
	rec, added, err := s.gs.SwapGatewayRecord(ctx, id, seq, u, msgs)
	s.m.storeFailed("swap_gateway_record", err)
	if err == nil {
		s.m.appended.Add(float64(len(msgs)))
	}
	return rec, added, err
}
