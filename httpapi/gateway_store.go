package httpapi

import (
	"context"

	"kompact"
)

// This file passes the gateway's store calls through measuredStore, so
// that the gateway's sessions count as every other's.

var _ kompact.GatewayStore = measuredStore{}

// gatewayStore is the wrapped store's GatewayStore, or an error store
// when it keeps no gateway sessions.
func (s measuredStore) gatewayStore() (kompact.GatewayStore, error) {
	gs, ok := s.st.(kompact.GatewayStore)
	if !ok {
		return nil, kompact.Errorf(kompact.EInternal, "the store keeps no gateway sessions")
	}
	return gs, nil
}

func (s measuredStore) CreateGatewaySession(ctx context.Context, in *kompact.Session, key, chain string, state []byte) (*kompact.SessionInfo, error) {
	gs, err := s.gatewayStore()
	if err != nil {
		return nil, err
	}
	out, err := gs.CreateGatewaySession(ctx, in, key, chain, state)
	s.m.storeFailed("create_gateway_session", err)
	if err == nil {
		s.m.appended.Add(float64(len(in.Messages)))
	}
	return out, err
}

func (s measuredStore) GetGatewayRecord(ctx context.Context, id string) (*kompact.GatewayRecord, error) {
	gs, err := s.gatewayStore()
	if err != nil {
		return nil, err
	}
	out, err := gs.GetGatewayRecord(ctx, id)
	s.m.storeFailed("get_gateway_record", err)
	return out, err
}

func (s measuredStore) FindGatewayRecords(ctx context.Context, key string, chains []string, limit int) ([]kompact.GatewayRecord, error) {
	gs, err := s.gatewayStore()
	if err != nil {
		return nil, err
	}
	out, err := gs.FindGatewayRecords(ctx, key, chains, limit)
	s.m.storeFailed("find_gateway_records", err)
	return out, err
}

func (s measuredStore) SwapGatewayRecord(ctx context.Context, id string, seq int64, u kompact.GatewayUpdate, msgs []kompact.Message) (*kompact.GatewayRecord, *kompact.Appended, error) {
	gs, err := s.gatewayStore()
	if err != nil {
		return nil, nil, err
	}
	rec, added, err := gs.SwapGatewayRecord(ctx, id, seq, u, msgs)
	s.m.storeFailed("swap_gateway_record", err)
	if err == nil {
		s.m.appended.Add(float64(len(msgs)))
	}
	return rec, added, err
}
